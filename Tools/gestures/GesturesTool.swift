import CommandLineKit

/// The tool: every subcommand, in the order `gestures --help` lists them,
/// and the hidden ones that print its manual page and shell completions.
let gesturesTool = CommandLineTool(
    name: "gestures",
    abstract: "gestures: recognise touchpad, touchscreen and mouse gestures on Linux.",
    version: gesturesVersionText,
    commands: [
        ReplayCommand.self,
        RunCommand.self,
        UICommand.self,
        CheckConfigCommand.self,
        DevicesCommand.self,
        DoctorCommand.self,
        FocusCommand.self,
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
    ],
    hiddenCommands: [
        GenerateManualCommand.self,
        GenerateCompletionCommand.self,
    ])
