// The assertions are written once, in WiringAssertions, and re-exported by both WiringXCTest and
// WiringSwiftTesting: a file that imports both sees each function once, so calls stay unambiguous.
@_exported import WiringAssertions
