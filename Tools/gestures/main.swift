import Foundation

exit(gesturesTool.run(Array(CommandLine.arguments.dropFirst())))
