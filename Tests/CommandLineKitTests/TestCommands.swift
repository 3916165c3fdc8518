import CommandLineKit

/// The output format of the test commands.
enum Shape: String, CaseIterable, Sendable {
    case circle
    case square
    case triangle
}

/// A command using each kind of option, as a real one would.
enum DrawCommand: Command {
    static let name = "draw"
    static let abstract = "Draw shapes."
    static let discussion = "Draws each NAME."

    static let shape = Option("--shape", .choice(Shape.self), default: .circle, help: "The shape.")
    static let size = Option("--size", valueName: "MM", .number(in: 0...100), default: 10, help: "The size in mm.")
    static let count = Option("--count", valueName: "N", .integer(in: 1...), help: "How many.")
    static let output = Option("--output", valueName: "FILE", .file, help: "Where to draw.", aliases: ["-o"])
    static let tag = Option("--tag", valueName: "TAG", .text, help: "A tag; repeat for more.").repeated()
    static let fill = Flag("--fill", help: "Fill the shapes.")

    static let options = [shape.spec, size.spec, count.spec, output.spec, tag.spec, fill.spec]
    static let arguments = [ArgumentSpec("NAME", count: .oneOrMore, help: "A name to draw.", missing: "nothing to draw")]

    struct Options: Equatable {
        var names: [String]
        var shape: Shape
        var size: Double
        var count: Int?
        var output: String?
        var tags: [String]
        var fill: Bool
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        if arguments[fill] && arguments[shape] == .triangle { throw UsageError("a triangle cannot be filled") }
        return Options(
            names: arguments.positionals, shape: arguments[shape], size: arguments[size], count: arguments[count],
            output: arguments[output], tags: arguments[tag], fill: arguments[fill])
    }

    static func run(_ options: Options) throws -> Int32 {
        if options.names.contains("fail") { throw CommandFailure("cannot draw 'fail'") }
        if options.names.contains("report") { throw FailureReport(lines: ["a: first", "a: second"], status: 3) }
        return Int32(options.names.count)
    }
}

/// A command with a required option and no arguments.
enum EraseCommand: Command {
    static let name = "erase"
    static let abstract = "Erase a drawing."
    static let file = Option("--file", valueName: "FILE", .file, help: "The drawing.").required()
    static let options = [file.spec]

    static func parse(_ arguments: ParsedArguments) -> String { arguments[file] }
    static func run(_ options: String) throws -> Int32 { 0 }
}

/// A hidden command.
enum SecretCommand: Command {
    static let name = "secret"
    static let abstract = "Not listed."
    static func parse(_ arguments: ParsedArguments) {}
    static func run(_ options: Void) throws -> Int32 { 7 }
}

/// A command whose argument and option are a file or the word `default`.
enum LibraryCommand: Command {
    static let name = "library"
    static let abstract = "Read a library."
    static let with = Option("--with", valueName: "LIB", .file(or: ["default"]), help: "Another library.")
    static let options = [with.spec]
    static let arguments = [ArgumentSpec("LIB", kind: .fileOr(["default"]), help: "The library.")]
    static func parse(_ arguments: ParsedArguments) -> String { arguments.positionals[0] }
    static func run(_ options: String) throws -> Int32 { 0 }
}
