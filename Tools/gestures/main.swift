import Foundation

/// Every subcommand, in the order `gestures --help` lists them.
let subcommands: [any Subcommand.Type] = [
    ReplayCommand.self,
    RunCommand.self,
    CheckConfigCommand.self,
    DevicesCommand.self,
    RecordCommand.self,
    WatchCommand.self,
    StrokesCommand.self,
    TrainCommand.self,
    TemplatesCommand.self,
    RecognizeCommand.self,
    EvalCommand.self,
    ConvertCommand.self,
    InfoCommand.self,
    BenchInputCommand.self,
    BenchEngineCommand.self,
    BenchPatternsCommand.self,
    BenchRecognizerCommand.self,
]

/// Subcommands for the test harnesses, not listed by `gestures --help`.
let hiddenSubcommands: [any Subcommand.Type] = [
    VMSuiteCommand.self,
    AsUserCommand.self,
]

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

@MainActor func topLevelHelp() -> String {
    var text = "OVERVIEW: gestures: recognise touchpad, touchscreen and mouse gestures on Linux.\n\n"
    text += "USAGE: gestures SUBCOMMAND [OPTIONS]\n\nSUBCOMMANDS:\n"
    let width = (subcommands.map { $0.name.count }.max() ?? 0) + 2
    for command in subcommands {
        text += "  \(command.name)\(String(repeating: " ", count: width - command.name.count))\(command.abstract)\n"
    }
    text += "\nSee 'gestures SUBCOMMAND --help' for the options of one subcommand.\n"
    return text
}

@MainActor func runMain(_ argv: [String]) -> Int32 {
    guard let first = argv.first else {
        print(topLevelHelp(), terminator: "")
        return 0
    }
    if first == "--help" || first == "-h" || first == "help" {
        print(topLevelHelp(), terminator: "")
        return 0
    }
    guard let command = (subcommands + hiddenSubcommands).first(where: { $0.name == first }) else {
        printError("gestures: unknown subcommand '\(first)'; run 'gestures --help' for the list.")
        return 64
    }
    do {
        let arguments = try Arguments(Array(argv.dropFirst()), options: command.options)
        if arguments.helpRequested {
            print(command.help, terminator: "")
            return 0
        }
        return try command.run(arguments)
    } catch let error as UsageError {
        printError("gestures \(command.name): \(error.description) (see 'gestures \(command.name) --help').")
        return 64
    } catch {
        printError("gestures \(command.name): \(sentence(for: error))")
        return 1
    }
}

/// One readable sentence for any error, never a dump of the error value.
func sentence(for error: any Error) -> String {
    var text = String(describing: error)
    if let last = text.last, !".!?".contains(last) { text += "." }
    return text
}

let status = runMain(Array(CommandLine.arguments.dropFirst()))
exit(status)
