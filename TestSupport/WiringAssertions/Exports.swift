// A test file that imports WiringXCTest or WiringSwiftTesting gets the container and the test
// container with it, so one import is enough to write a test.
@_exported import Wiring
@_exported import WiringTestSupport
