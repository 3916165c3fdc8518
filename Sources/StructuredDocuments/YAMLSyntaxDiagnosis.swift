import InputChecks

/// What a YAML syntax error of libyaml means in the text that caused it:
/// the line as written and the likely fix, read from the indentation of the
/// lines above.
///
/// libyaml names the grammar rule that failed ("mapping values are not
/// allowed in this context", "did not find expected '-' indicator"), which
/// says little to someone who typed one space too many. Most such errors in
/// a hand-written file are one of a few mistakes, and the text shows which:
///
/// - a tab in the indentation (YAML indents with spaces only);
/// - a line indented to no column the lines above open: the fix is the
///   nearest such column, named by the key (or `-`) that stands there;
/// - a line at the column of the list items above without its `- `;
/// - `: ` inside a plain value (`title: a: b`), which needs quotes;
/// - `key:value` without the space after the colon;
/// - a quote, `[` or `{` that is never closed (libyaml's context says where it opened).
///
///     bindings:
///       - gesture: swipe
///          fingers: 3
///     // line 3, column 13: malformed YAML: mapping values are not allowed in this context,
///     // in '     fingers: 3'; likely fix: indent it by 4 spaces, like 'gesture' on line 2
struct YAMLSyntaxDiagnosis {
    /// The error, with the line, its excerpt and the likely fix.
    let error: YAMLNode.ParseError

    /// The diagnosis of libyaml's `problem` at `line` and `column` (1-based)
    /// of `text`, with libyaml's `context` and where it started, when it gives one.
    init(
        text: UnsafeBufferPointer<UInt8>, problem: String, line: Int, column: Int,
        context: String?, contextLine: Int, contextColumn: Int
    ) {
        let lines = Self.lines(of: text, upTo: max(line, contextLine))
        let fix = Self.fix(
            problem: problem, lines: lines, line: line, column: column,
            context: context, contextLine: contextLine, contextColumn: contextColumn)
        // A key libyaml gave up on (`fingers:3`) is where its scan started, not where it stopped.
        let place = context?.contains("simple key") == true && contextLine <= line ? (contextLine, contextColumn) : (line, column)
        let current = place.0 <= lines.count ? lines[place.0 - 1] : nil
        // A blank line shows nothing, and neither does binary (a NUL, or bytes that are not UTF-8).
        let shown = current.flatMap { line in
            line.allSatisfy(\.isWhitespace) || line.unicodeScalars.contains { $0 == "\u{0}" || $0 == "\u{FFFD}" }
                ? nil : Excerpt.quoted(Self.trimmedEnd(line), limit: 60)
        }
        error = YAMLNode.ParseError(.malformed(problem), line: place.0, column: place.1, excerpt: shown, fix: fix)
    }

    /// The first `count` lines of `text`, decoded as UTF-8.
    private static func lines(of text: UnsafeBufferPointer<UInt8>, upTo count: Int) -> [String] {
        var result: [String] = []
        var start = 0
        var index = 0
        while index < text.count, result.count < count {
            if text[index] == UInt8(ascii: "\n") {
                result.append(String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self))
                start = index + 1
            }
            index += 1
        }
        if result.count < count, start < text.count {
            result.append(String(decoding: UnsafeBufferPointer(rebasing: text[start..<text.count]), as: UTF8.self))
        }
        return result.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
    }

    private static func trimmedEnd(_ text: String) -> Substring {
        text[..<(text.lastIndex(where: { !$0.isWhitespace }).map { text.index(after: $0) } ?? text.startIndex)]
    }

    /// The likely fix, or nil when the text shows none.
    private static func fix(
        problem: String, lines: [String], line: Int, column: Int,
        context: String?, contextLine: Int, contextColumn: Int
    ) -> String? {
        let current = line <= lines.count ? lines[line - 1] : ""
        let lead = current.prefix { $0 == " " || $0 == "\t" }
        if lead.contains("\t") || problem.contains("tab") || current.dropFirst(max(0, column - 1)).first == "\t" {
            return "replace the tab with spaces (YAML indents with spaces only)"
        }
        if let context {
            let place = "line \(contextLine), column \(contextColumn)"
            if context.contains("quoted scalar") { return "close the quote opened on \(place)" }
            if context.contains("flow sequence") { return "close the '[' opened on \(place) with ']'" }
            if context.contains("flow mapping") { return "close the '{' opened on \(place) with '}'" }
            if context.contains("simple key"), contextLine <= lines.count,
                let glued = lines[contextLine - 1].split(separator: " ").first(where: { $0.contains(/[^:]:[^\s:\/]/) })
            {
                return "put a space after the ':' in \(Excerpt.quoted(glued))"
            }
        }
        guard line <= lines.count, !current.allSatisfy(\.isWhitespace) else { return nil }
        if let indentation = indentationFix(lines: lines, line: line) { return indentation }
        if problem.hasPrefix("mapping values are not allowed"), current.firstRange(of: /:\s.*:(\s|$)/) != nil {
            return "put the value in quotes (a ': ' inside a plain value starts a mapping)"
        }
        return nil
    }

    /// A column the lines above open for a key or a list item: where a key
    /// or a `-` stands, and on which line.
    private struct Column {
        var column: Int
        var line: Int
        /// The key at this column, or nil for a `-`.
        var key: String?
    }

    /// The fix of a line indented to no column the lines above open, or of a
    /// line at the column of list items without its `- `; nil when the
    /// indentation is consistent.
    private static func indentationFix(lines: [String], line: Int) -> String? {
        let current = lines[line - 1]
        let indent = current.prefix { $0 == " " }.count
        let isItem = current.dropFirst(indent).hasPrefix("- ") || current.dropFirst(indent) == "-"
        // The nearest non-blank, non-comment line above opens a deeper block when it ends with ':'.
        var open: [Column] = []
        var bound = Int.max
        for number in stride(from: line - 1, through: 1, by: -1) {
            let text = lines[number - 1]
            let body = text.drop { $0 == " " }
            if body.isEmpty || body.hasPrefix("#") { continue }
            if open.isEmpty, body.hasSuffix(":") || body.hasSuffix(": |") || body.hasSuffix(": >") {
                if indent > text.count - body.count { return nil }
            }
            for column in columns(of: text, line: number).reversed() where column.column < bound {
                open.append(column)
                bound = column.column
            }
            if bound == 0 { break }
        }
        guard !open.isEmpty else { return nil }
        if let same = open.first(where: { $0.column == indent }) {
            guard same.key == nil, !isItem, let key = open.first(where: { $0.key != nil && $0.column > indent }) else { return nil }
            return "start it with '- ' if it begins a new item of the list on line \(same.line), "
                + "or indent it by \(key.column) spaces, like \(Excerpt.quoted(key.key!)) on line \(key.line)"
        }
        // The nearest open column; a list item prefers a '-', a key a key, then the deeper.
        let nearest = open.min { a, b in
            let da = abs(a.column - indent), db = abs(b.column - indent)
            if da != db { return da < db }
            let ka = (a.key == nil) == isItem, kb = (b.key == nil) == isItem
            if ka != kb { return ka }
            return a.column > b.column
        }!
        let what = nearest.key.map { "like \(Excerpt.quoted($0)) on line \(nearest.line)" } ?? "like the '-' on line \(nearest.line)"
        if nearest.column == 0 { return "remove its indentation, \(what)" }
        return "indent it by \(nearest.column) spaces, \(what)"
    }

    /// The columns `text` opens, left to right: each `-` of its list items
    /// and its key, when it has one (`  - gesture: swipe` opens 2 and 4).
    private static func columns(of text: String, line: Int) -> [Column] {
        var result: [Column] = []
        var rest = Substring(text)
        var column = 0
        while true {
            let spaces = rest.prefix { $0 == " " }.count
            column += spaces
            rest = rest.dropFirst(spaces)
            guard rest.hasPrefix("- ") || rest == "-" else { break }
            result.append(Column(column: column, line: line, key: nil))
            rest = rest.dropFirst()
            column += 1
        }
        if let colon = rest.firstRange(of: /:(\s|$)/), !rest.hasPrefix("#"), !rest.hasPrefix("["), !rest.hasPrefix("{") {
            let key = rest[rest.startIndex..<colon.lowerBound].trimmingCharacters(in: ["\"", "'"])
            if !key.isEmpty, !key.contains(" ") || key.count < 40 { result.append(Column(column: column, line: line, key: key)) }
        }
        return result
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: Set<Character>) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
