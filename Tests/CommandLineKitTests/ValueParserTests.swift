import CommandLineKit
import Testing

@Suite("ValueParser and ValueRange: what a value may be, and the phrase that says so")
struct ValueParserTests {
    @Test(
        "ranges are named as a user reads them",
        arguments: [
            (ValueParser<Int>.integer().expectation, "a whole number"),
            (ValueParser<Int>.integer(in: 1...).expectation, "a positive whole number"),
            (ValueParser<Int>.integer(in: 0...).expectation, "a whole number of 0 or more"),
            (ValueParser<Int>.integer(in: 1000...).expectation, "a whole number of at least 1000"),
            (ValueParser<Int>.integer(in: 8...1024).expectation, "a whole number from 8 to 1024"),
            (ValueParser<Double>.number().expectation, "a number"),
            (ValueParser<Double>.number(above: 0).expectation, "a positive number"),
            (ValueParser<Double>.number(above: 2).expectation, "a number greater than 2"),
            (ValueParser<Double>.number(in: 0...1).expectation, "a number from 0 to 1"),
            (ValueParser<Double>.number(in: 0.5...).expectation, "a number of at least 0.5"),
        ])
    func phrases(expectation: String, expected: String) {
        #expect(expectation == expected)
    }

    @Test("numbers outside the range, and text that is no number, are rejected")
    func bounds() {
        let positive = ValueParser<Double>.number(above: 0)
        #expect(positive.parse("0") == nil && positive.parse("0.001") == 0.001)
        #expect(positive.parse("inf") == nil && positive.parse("x") == nil)
        let percent = ValueParser<Int>.integer(in: 0...100)
        #expect(percent.parse("100") == 100 && percent.parse("101") == nil && percent.parse("-1") == nil && percent.parse("1e2") == nil)
        let seed = ValueParser<UInt64>.integer(in: 0...)
        #expect(seed.parse("18446744073709551615") == .max && seed.parse("-1") == nil)
    }

    @Test("choices list their words in order, for help, errors and completions")
    func choices() {
        let shapes = ValueParser<Shape>.choice()
        #expect(shapes.placeholder == "circle|square|triangle")
        #expect(shapes.expectation == "circle, square or triangle")
        #expect(shapes.kind.choices == ["circle", "square", "triangle"])
        #expect(shapes.parse("square") == .square && shapes.parse("Square") == nil)
        #expect(shapes.format(.triangle) == "triangle")
        let two = ValueParser<Int>.choice([("one", 1), ("two", 2)])
        #expect(two.expectation == "one or two" && two.parse("two") == 2 && two.format(1) == "one")
    }

    @Test("defaults are shown as the user would type them")
    func defaultsInHelp() {
        #expect(DrawCommand.size.spec.defaultValue == "10")
        #expect(DrawCommand.shape.spec.defaultValue == "circle")
        #expect(DrawCommand.count.spec.defaultValue == nil)
        #expect(Option("--x", valueName: "X", .number(), default: 0.25, help: "").spec.defaultValue == "0.25")
    }
}
