import CommandLineKit
import Foundation

/// The tool: every subcommand, in the order `gestures --help` lists them.
let gestures = CommandLineTool(
    name: "gestures",
    abstract: "gestures: recognise touchpad, touchscreen and mouse gestures on Linux.",
    version: gesturesVersion,
    commands: [
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
        RenderCommand.self,
        InfoCommand.self,
        BenchCommand.self,
        BenchPatternsCommand.self,
    ])

exit(gestures.run(Array(CommandLine.arguments.dropFirst())))
