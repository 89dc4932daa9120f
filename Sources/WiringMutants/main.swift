import Foundation
import WiringMutantsCore

exit(MutantsCommand.main(Array(CommandLine.arguments.dropFirst())))
