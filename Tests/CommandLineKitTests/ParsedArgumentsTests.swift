import CommandLineKit
import Testing

@Suite("ParsedArguments: typed values from a command line")
struct ParsedArgumentsTests {
    func parse(_ words: [String]) throws(UsageError) -> DrawCommand.Options {
        try DrawCommand.parse(ParsedArguments(words, options: DrawCommand.options, arguments: DrawCommand.arguments))
    }

    @Test("options not given take their defaults, nil or empty")
    func defaults() throws {
        let options = try parse(["a"])
        #expect(options == .init(names: ["a"], shape: .circle, size: 10, count: nil, output: nil, tags: [], fill: false))
    }

    @Test("each kind of value is converted to its type, with = or as the next word")
    func typedValues() throws {
        let options = try parse([
            "--shape", "square", "--size=2.5", "--count", "3", "-o", "out.svg", "--tag", "x", "--tag=y", "--fill", "a", "b",
        ])
        #expect(options == .init(names: ["a", "b"], shape: .square, size: 2.5, count: 3, output: "out.svg", tags: ["x", "y"], fill: true))
    }

    @Test("an alias and the primary name are one option")
    func aliases() throws {
        #expect(try parse(["--output", "f", "a"]).output == "f")
        #expect(throws: UsageError("option '--output' is given more than once")) { try parse(["-o", "f", "--output", "g", "a"]) }
    }

    @Test("after --, and a lone -, words are positional")
    func positionalsAfterDoubleDash() throws {
        #expect(try parse(["--", "--fill", "-"]).names == ["--fill", "-"])
        #expect(try parse(["-", "--fill"]).names == ["-"])
    }

    @Test("an option that applies only with another is a usage error alone, whatever its value, and fine with it")
    func requirements() throws {
        let explain = Flag("--explain", help: "Explain.")
        let format = Option("--format", valueName: "F", .text, default: "text", help: "With --explain: the format.").requiring("--explain")
        let quiet = Flag("--quiet", help: "With --explain or --format: less.").requiring("--explain", "--format")
        let options = [explain.spec, format.spec, quiet.spec]
        #expect(throws: UsageError("--format applies only with --explain; add --explain or leave --format out")) {
            try ParsedArguments(["--format", "json"], options: options)
        }
        #expect(throws: UsageError("--quiet applies only with --explain or --format; add --explain or leave --quiet out")) {
            try ParsedArguments(["--quiet"], options: options)
        }
        #expect(try ParsedArguments(["--format", "json", "--explain"], options: options)[format] == "json")
        #expect(try ParsedArguments(["--explain", "--quiet"], options: options)[quiet])
        // Its default is no value given: nothing is required then.
        #expect(try ParsedArguments([], options: options)[format] == "text")
    }

    @Test("a value may start with a dash")
    func dashedValue() throws {
        #expect(try parse(["--tag", "-x", "a"]).tags == ["-x"])
    }

    @Test(
        "bad command lines name the option and what it expects",
        arguments: [
            (["--bogus", "a"], "unknown option '--bogus'"),
            (["--size", "200", "a"], "option '--size' expects a number from 0 to 100, got '200'"),
            (["--size", "nan", "a"], "option '--size' expects a number from 0 to 100, got 'nan'"),
            (["--count", "0", "a"], "option '--count' expects a positive whole number, got '0'"),
            (["--count", "1.5", "a"], "option '--count' expects a positive whole number, got '1.5'"),
            (["--shape", "hexagon", "a"], "option '--shape' expects circle, square or triangle, got 'hexagon'"),
            (["--fill=yes", "a"], "option '--fill' takes no value"),
            (["a", "--count"], "option '--count' needs a value (N)"),
            (["--size", "1", "--size", "2", "a"], "option '--size' is given more than once"),
            ([], "nothing to draw"),
            (["--fill", "--shape", "triangle", "a"], "a triangle cannot be filled"),
        ])
    func badCommandLines(words: [String], message: String) {
        #expect(throws: UsageError.self) { try parse(words) }
        do { _ = try parse(words) } catch { #expect(error.message == message) }
    }

    @Test("a mistyped option or choice suggests the nearest one")
    func suggestions() {
        do { _ = try parse(["--shap", "circle", "a"]); Issue.record("parsed") } catch {
            #expect(error.suggestion == "--shape")
        }
        do { _ = try parse(["--shape", "squre", "a"]); Issue.record("parsed") } catch {
            #expect(error.suggestion == "square")
            #expect(error.description == "option '--shape' expects circle, square or triangle, got 'squre'; did you mean 'square'?")
        }
        do { _ = try parse(["--bogus", "a"]); Issue.record("parsed") } catch {
            #expect(error.suggestion == nil)
        }
    }

    @Test("a required option must be given; its value is then not optional")
    func requiredOption() throws {
        #expect(throws: UsageError("missing --file FILE")) {
            try ParsedArguments([], options: EraseCommand.options, arguments: EraseCommand.arguments)
        }
        let parsed = try ParsedArguments(["--file", "x"], options: EraseCommand.options)
        #expect(EraseCommand.parse(parsed) == "x")
    }

    @Test("too many positional arguments name the first extra one")
    func tooManyArguments() {
        #expect(throws: UsageError("unexpected argument 'b'")) {
            try ParsedArguments(["a", "b", "c"], options: [], arguments: [ArgumentSpec("ONE")])
        }
        #expect(throws: UsageError("unexpected argument 'c'")) {
            try ParsedArguments(["a", "b", "c"], options: [], arguments: [ArgumentSpec("ONE"), ArgumentSpec("MAYBE", count: .optional)])
        }
        #expect(throws: UsageError("unexpected argument 'x'")) { try ParsedArguments(["x"], options: []) }
    }

    @Test("--help is noticed wherever it is, and nothing else is checked then")
    func helpWins() throws {
        let parsed = try ParsedArguments(
            ["--bogus", "--size", "x", "--help"], options: DrawCommand.options, arguments: DrawCommand.arguments)
        #expect(parsed.isHelpRequested)
        for words in [["--fill=1", "-h"], ["--size", "1", "--size", "2", "--help"], ["--help", "--count"], ["--count", "--help"]] {
            #expect(try ParsedArguments(words, options: DrawCommand.options, arguments: DrawCommand.arguments).isHelpRequested)
        }
        #expect(try DrawCommand.parse(words: ["-h"]) == nil)
        // After --, it is a positional argument like any other.
        #expect(try DrawCommand.parse(words: ["--", "--help"])?.names == ["--help"])
    }

    @Test("the words given to an option are kept as typed")
    func rawWords() throws {
        let parsed = try ParsedArguments(["--size", "2.50", "a"], options: DrawCommand.options, arguments: DrawCommand.arguments)
        #expect(parsed.words(forOptionNamed: "--size") == ["2.50"])
        #expect(parsed.words(forOptionNamed: "--count") == [])
        #expect(parsed.isGiven(DrawCommand.size.spec) && !parsed.isGiven(DrawCommand.count.spec))
    }
}
