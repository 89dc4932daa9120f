import Foundation
import WiringDemoKit

// Everything the demo prints is computed by WiringDemoKit, where tests check it; this file only
// writes it out and exits with the status it gives.
let result = Demo.run(arguments: Array(CommandLine.arguments.dropFirst()))
if !result.standardOutput.isEmpty {
    print(result.standardOutput)
}
if !result.standardError.isEmpty {
    FileHandle.standardError.write(Data((result.standardError + "\n").utf8))
}
exit(result.exitCode)
