import CommandLineKit
import Testing

@Suite("ManualPage: gestures(1) from the option tables")
struct ManualPageTests {
    static let page = ManualPage(
        tool: CommandLineToolTests.tool, description: "Draws.\n\n  tool draw a b\n",
        sections: [.init("Files", "~/.drawrc")]
    ).text

    @Test("the header names the tool and its version; NAME drops the tool's name from the abstract")
    func header() {
        #expect(Self.page.hasPrefix(".TH TOOL 1 \"\" \"tool 1.2.3\" \"User Commands\"\n"))
        #expect(Self.page.contains(".SH NAME\ntool \\- A tool.\n"))
    }

    @Test("each listed command has a section with its usage, options and arguments; hidden ones have none")
    func commands() {
        #expect(Self.page.contains(".SS tool draw\n"))
        #expect(Self.page.contains(".SS tool erase\n\\fBtool erase\\fR \\-\\-file FILE\n"))
        #expect(Self.page.contains(".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIFILE\\fR\nWhere to draw.\n"))
        #expect(Self.page.contains(".TP\n\\fB\\-\\-size\\fR \\fIMM\\fR\nThe size in mm (default: 10).\n"))
        #expect(Self.page.contains(".TP\n\\fINAME\\fR\nA name to draw.\n"))
        #expect(Self.page.contains("[\\-\\-shape\\ circle|square|triangle]"), "a bracketed usage item never breaks")
        #expect(!Self.page.contains("secret"))
    }

    @Test("indented lines stay unfilled, sections follow EXIT STATUS, and a leading dot is escaped")
    func paragraphs() {
        #expect(Self.page.contains(".SH DESCRIPTION\nDraws.\n.PP\n.nf\n  tool draw a b\n.fi\n"))
        #expect(Self.page.contains(".SH EXIT STATUS\n"))
        #expect(Self.page.contains(".SH FILES\n~/.drawrc\n"))
        #expect(ManualPage(tool: CommandLineToolTests.tool, description: ".hidden").text.contains("\\&.hidden\n"))
    }
}
