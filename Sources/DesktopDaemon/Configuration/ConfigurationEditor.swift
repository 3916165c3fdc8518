import Foundation
import GestureTraces
import InputChecks
import StructuredDocuments

/// The configuration file as the page edits it: its bindings as document
/// trees, a check of new bindings by the reader `check-config` uses (every
/// error and warning with its key path), and the file's text with new
/// bindings that keeps what it can of the old: in YAML every line outside
/// `bindings:`, and each binding left unchanged with its comments, in the
/// order given; JSON (which has no comments) is written anew, keys in order.
///
///     var editor = try ConfigurationEditor(path: "config.yaml")
///     var bindings = editor.bindings
///     bindings.removeFirst()
///     let check = editor.check(bindings.map { .init(origin: nil, node: $0) })
///     if check.errors.isEmpty { try editor.save(bindings.map { .init(origin: nil, node: $0) }) }
public struct ConfigurationEditor: Sendable {
    /// One binding of a new list: its tree, and the index in the file it came from (nil: a new one).
    public struct Binding: Hashable, Sendable {
        /// Where it stood in the file as read, or nil for a binding the page added.
        public var origin: Int?
        /// The binding.
        public var node: DocumentNode

        /// A binding from its parts.
        public init(origin: Int?, node: DocumentNode) {
            self.origin = origin
            self.node = node
        }
    }

    /// What the reader says of a configuration with new bindings.
    public struct Check: Sendable {
        /// Every error, with its key path (`bindings[2].fingers`); empty when the file would be valid.
        public var errors: [ConfigurationError]
        /// Every warning of a valid configuration (``DaemonConfiguration/warnings()``), with its key path.
        public var warnings: [ConfigurationWarning]
    }

    /// What a save did.
    public struct Saved: Sendable {
        /// The file written.
        public var path: String
        /// The previous file, kept: `config.yaml.bak` beside it (nil when there was none).
        public var backup: String?
        /// What of the old text could not be kept, in one sentence each (empty: everything outside the changed bindings).
        public var notes: [String]
    }

    /// Why the file cannot be edited or saved: one sentence.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, and where.
        public var description: String
    }

    /// The file.
    public let path: String
    /// Its syntax.
    public let format: DaemonConfiguration.Format
    /// Its text as read (empty when the file does not exist yet).
    public let text: String
    /// The document as read (a new file's: version 1 and no binding).
    public let root: DocumentNode
    /// The bindings as read, in order.
    public let bindings: [DocumentNode]

    /// A short fingerprint of ``text``: a save names the text it edits, so a
    /// file changed on disk meanwhile is not overwritten.
    public var revision: String { Self.revision(of: text) }

    /// Reads `path` (a file that does not exist yet is an empty configuration,
    /// in YAML unless the name ends in `.json`).
    public init(path: String) throws(Failure) {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw Failure(description: "\(path) is a folder, not a configuration file") }
            let data: Data
            do { data = try InputFile.read(path, maximumBytes: DaemonConfiguration.Limits.maximumFileBytes) } catch {
                throw Failure(description: "cannot read \(path): \(error.message)")
            }
            format = .detect(path: path, data: data)
            text = String(decoding: data, as: UTF8.self)
            do {
                root = format == .json ? try DocumentNode.parse(json: data) : try DocumentNode.parse(yaml: data)
            } catch {
                throw Failure(description: "\(path) cannot be edited in the page until it reads: \(error.description)")
            }
        } else {
            format = path.lowercased().hasSuffix(".json") ? .json : .yaml
            text = ""
            root = .object([.init(key: "version", value: .number(1, text: "1")), .init(key: "bindings", value: .array([]))])
        }
        guard case .object = root else { throw Failure(description: "\(path) is not a mapping of keys, so the page cannot edit it") }
        if case .array(let items)? = root["bindings"] {
            bindings = items
        } else {
            bindings = []
        }
    }

    /// A binding's keys in the reader's order (`name`, `gesture`, `fingers`, ..., `action`), and its action's likewise:
    /// how a binding is written anew, whatever order a page sent its keys in.
    public static func canonical(_ binding: DocumentNode) -> DocumentNode {
        func ordered(_ node: DocumentNode, _ order: [String]) -> DocumentNode {
            guard case .object(let members) = node else { return node }
            return .object(members.sorted { (order.firstIndex(of: $0.key) ?? order.count) < (order.firstIndex(of: $1.key) ?? order.count) })
        }
        guard case .object(var members) = ordered(binding, DaemonConfiguration.Binding.keys.words) else { return binding }
        if let index = members.firstIndex(where: { $0.key == "action" }) {
            members[index].value = ordered(members[index].value, DaemonConfiguration.Action.keyOrder)
        }
        return .object(members)
    }

    /// Whether two bindings say the same: the same keys whatever their order, numbers by value.
    public static func same(_ a: DocumentNode, _ b: DocumentNode) -> Bool {
        switch (a, b) {
        case (.number(let x, _), .number(let y, _)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { member in y.contains { $0.key == member.key && same($0.value, member.value) } }
        default: return a == b
        }
    }

    /// The document with `bindings` in place of the file's.
    public func document(with bindings: [Binding]) -> DocumentNode {
        guard case .object(var members) = root else { return root }
        let list = DocumentNode.array(bindings.map { Self.canonical($0.node) })
        if let index = members.firstIndex(where: { $0.key == "bindings" }) {
            members[index].value = list
        } else {
            members.append(.init(key: "bindings", value: list))
        }
        return .object(members)
    }

    /// What the reader says of the configuration with `bindings`: its errors, or, when valid, its warnings.
    public func check(_ bindings: [Binding]) -> Check {
        let data = Data(document(with: bindings).jsonText.utf8)
        do {
            let configuration = try DaemonConfiguration.decode(
                data, format: .json, baseDirectory: (path as NSString).deletingLastPathComponent)
            return Check(errors: [], warnings: configuration.warnings())
        } catch {
            return Check(errors: error.errors, warnings: [])
        }
    }

    /// The file's text with `bindings`, and what of the old text could not be kept.
    public func text(with bindings: [Binding]) -> (text: String, notes: [String]) {
        guard format == .yaml, !text.isEmpty else {
            let notes =
                format == .json && !text.isEmpty ? ["\(path) is JSON, which has no comments: it is written anew, its keys in order"] : []
            return (format == .json ? document(with: bindings).prettyJSONText : Self.newYAML(document(with: bindings)), notes)
        }
        return YAMLBindingsText(text: text).replacing(bindings, old: self.bindings)
    }

    /// Checks `bindings` and writes the file with them: the new text goes to
    /// a file beside it, is flushed, the old file is kept as `PATH.bak`, and
    /// the new one is renamed over it (a symlink is followed: the file it
    /// names is replaced, the link kept). Nothing is written when the check
    /// finds an error or the file changed since it was read (`revision`).
    public func save(_ bindings: [Binding], revision: String? = nil) throws(Failure) -> Saved {
        let errors = check(bindings).errors
        guard errors.isEmpty else {
            throw Failure(description: "nothing was saved: \(ConfigurationErrors(file: path, errors).description)")
        }
        // The file as it is now: an edit on disk since it was read (by the page, or by this editor) is never overwritten.
        let now =
            (try? InputFile.read(path, maximumBytes: DaemonConfiguration.Limits.maximumFileBytes)).map {
                String(decoding: $0, as: UTF8.self)
            } ?? ""
        if Self.revision(of: now) != self.revision || (revision.map { $0 != self.revision } ?? false) {
            throw Failure(description: "\(path) changed since the page read it; reload the page to edit what it holds now")
        }
        let (newText, notes) = text(with: bindings)
        let (target, backup) = try Self.write(Data(newText.utf8), to: path)
        return Saved(path: target, backup: backup, notes: notes)
    }

    /// Writes `data` over the regular file at `path` (a symlink followed) through the one output writer
    /// (`OutputFile`), keeping the old file as `NAME.bak` beside it; a missing folder is made first.
    /// Returns the file written and its backup, when there was an old file.
    static func write(_ data: Data, to path: String) throws(Failure) -> (target: String, backup: String?) {
        let folder = PathName.folderOrCurrent(of: path)
        if !FileManager.default.fileExists(atPath: folder) {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw Failure(description: "cannot make the folder \(folder): \(error.localizedDescription)")
            }
        }
        do {
            guard case .file(let target) = try OutputFile.destination(of: path) else {
                throw Failure(description: "\(path) is not a regular file, so the page does not write it")
            }
            let backup = FileManager.default.fileExists(atPath: target) ? target + ".bak" : nil
            try OutputFile.write(data, to: path, backup: backup.map { PathName.lastComponent(of: $0) })
            return (target, backup)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// A fingerprint of a text (FNV-1a, 64 bits, as hex): enough to tell an edit on disk.
    static func revision(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// A new YAML file for `document`: its keys in order, `bindings` in block style.
    static func newYAML(_ document: DocumentNode) -> String {
        guard case .object(let members) = document else { return document.yamlFlow + "\n" }
        return members.map { member in
            if member.key == "bindings", case .array(let items) = member.value, !items.isEmpty {
                return "bindings:\n" + items.map { $0.yamlSequenceItem(indent: 2) }.joined()
            }
            return DocumentNode.yamlScalar(member.key) + ": " + member.value.yamlFlow + "\n"
        }.joined()
    }
}

/// The lines of a YAML configuration and where its bindings stand in them:
/// each item of the root's block sequence `bindings:` from its dash (with the
/// comment lines just above it) to the next item's, so that a binding left
/// unchanged keeps its text and comments wherever it moves.
struct YAMLBindingsText {
    let lines: [Substring]

    init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    private static func indent(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
    private static func isCommentOrBlank(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " }
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    /// The text with `bindings`, and what of the old text could not be kept.
    func replacing(_ bindings: [ConfigurationEditor.Binding], old: [DocumentNode]) -> (text: String, notes: [String]) {
        let written = bindings.map { ConfigurationEditor.canonical($0.node).yamlSequenceItem(indent: 2) }
        guard let key = lines.firstIndex(where: { $0.hasPrefix("bindings:") }) else {
            // No bindings yet: they go at the end.
            let body = lines.joined(separator: "\n")
            return (body + (body.hasSuffix("\n") || body.isEmpty ? "" : "\n") + "bindings:\n" + written.joined(), [])
        }
        // The section ends at the next root key (or the end), before the comments just above it.
        var end =
            lines[(key + 1)...].firstIndex { !$0.isEmpty && Self.indent($0) == 0 && !$0.hasPrefix("#") && !$0.hasPrefix("-") }
            ?? lines.count
        while end > key + 1, Self.isCommentOrBlank(lines[end - 1]), Self.indent(lines[end - 1]) == 0 || lines[end - 1].isEmpty { end -= 1 }
        let inline = lines[key].dropFirst("bindings:".count).drop { $0 == " " }
        let dashes = (key + 1..<end).filter { lines[$0].drop { $0 == " " }.hasPrefix("- ") || lines[$0].drop { $0 == " " } == "-" }
        let dashIndent = dashes.first.map { Self.indent(lines[$0]) }
        let items = dashes.filter { Self.indent(lines[$0]) == dashIndent }
        var head = Array(lines[..<key]).map(String.init)
        let tail = Array(lines[end...]).map(String.init)
        guard inline.isEmpty || inline.hasPrefix("#"), items.count == old.count, let dashIndent else {
            let note =
                old.isEmpty
                ? [] : ["the bindings were not written as a list of `- ` items, so they are written anew (their comments are not kept)"]
            head.append("bindings:")
            return (head.joined(separator: "\n") + "\n" + written.joined() + tail.joined(separator: "\n"), note)
        }
        // Each item's lines: from the comments just above its dash to the next item's.
        var starts = items
        for (index, dash) in items.enumerated() {
            var start = dash
            let floor = index == 0 ? key + 1 : items[index - 1] + 1
            while start > floor, Self.isCommentOrBlank(lines[start - 1]),
                lines[start - 1].isEmpty || Self.indent(lines[start - 1]) <= dashIndent
            {
                start -= 1
            }
            starts[index] = start
        }
        let leading = Array(lines[(key + 1)..<starts[0]]).map(String.init)
        func chunk(_ index: Int) -> String {
            let upper = index + 1 < items.count ? starts[index + 1] : end
            return lines[starts[index]..<upper].joined(separator: "\n") + "\n"
        }
        var notes: [String] = []
        var body = ""
        for (index, binding) in bindings.enumerated() {
            if let origin = binding.origin, old.indices.contains(origin), ConfigurationEditor.same(old[origin], binding.node) {
                body += chunk(origin)
            } else {
                if let origin = binding.origin, old.indices.contains(origin) {
                    // Changed: the comments above it stay, its own lines are written anew.
                    let comments = lines[starts[origin]..<items[origin]].map(String.init)
                    body += comments.map { $0 + "\n" }.joined()
                    if lines[items[origin]..<(origin + 1 < items.count ? starts[origin + 1] : end)].contains(where: { $0.contains("#") }) {
                        notes.append("bindings[\(index)] changed, so the comments inside it are not kept")
                    }
                }
                body += ConfigurationEditor.canonical(binding.node).yamlSequenceItem(indent: dashIndent)
            }
        }
        let removed = old.indices.filter { origin in !bindings.contains { $0.origin == origin } }
        for origin in removed
        where lines[starts[origin]..<(origin + 1 < items.count ? starts[origin + 1] : end)].contains(where: { $0.contains("#") }) {
            notes.append("the binding removed from bindings[\(origin)] took its comments with it")
        }
        head.append(String(lines[key]))
        let before = (head + leading).joined(separator: "\n") + "\n"
        return (before + body + tail.joined(separator: "\n"), notes)
    }
}
