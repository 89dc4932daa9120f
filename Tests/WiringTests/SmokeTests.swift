import Testing
@testable import Wiring
