import Wiring

print("placeholder")
