import CommandLineKit
import Foundation
import GestureRecognition
import GestureTraces
import InputChecks

/// What `gestures render` draws, told from the file's content: a recording
/// (JSON trace, `libinput record` YAML, evemu) or a template library (or
/// `default`, the bundled one). Any other file gets one sentence naming what
/// it looks like and the command that takes it.
enum RenderInput {
    /// A recording, to draw as a ``TracePicture``.
    case recording(Trace)
    /// A template library, to draw as a ``TemplateGallery``.
    case templates(TemplateLibrary)

    /// The bytes read to tell the kind of a file.
    static let prefixBytes = 64 * 1024

    /// Reads `path` as a recording or a template library.
    static func load(_ path: String) throws -> RenderInput {
        if path == "default" { return .templates(.dollarShapes) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(path): no such file; give a recording or a template library (or 'default')")
        }
        guard !isDirectory.boolValue else {
            throw CommandFailure("\(path) is a folder; give one recording or template library file in it")
        }
        let prefix: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            prefix = try handle.read(upToCount: prefixBytes) ?? Data()
        } catch {
            throw CommandFailure("cannot read \(path): \((error as NSError).localizedDescription)")
        }
        switch try kind(of: prefix, path: path) {
        case .recording:
            do { return .recording(try Trace.load(contentsOf: URL(fileURLWithPath: path))) } catch {
                throw CommandFailure(CommandLineTool.sentence(for: error))
            }
        case .templates:
            return .templates(try TemplateLibraryFile.load(path))
        }
    }

    /// Which of the two a file starting with `prefix` is.
    private enum Kind { case recording, templates }

    private static func kind(of prefix: Data, path: String) throws -> Kind {
        let firstByte = prefix.first { !" \t\r\n".utf8.contains($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        guard let firstByte else { throw CommandFailure("\(path) is empty; give a recording or a template library") }
        let strokeHint = "draw it with 'gestures recognize \(path) --explain -o OUT.svg'"
        switch firstByte {
        case UInt8(ascii: "<"):
            throw CommandFailure("\(path) is a $1 XML stroke log, not a recording; \(strokeHint)")
        case UInt8(ascii: "["):
            throw CommandFailure("\(path) is a list of JSON strokes, not a recording; \(strokeHint)")
        case UInt8(ascii: "{"):
            return try jsonKind(prefix: prefix, path: path, strokeHint: strokeHint)
        default:
            guard TraceFormat.detect(prefix) == .libinput else { return .recording }
            let keys = topLevelKeys(yamlPrefix: prefix)
            if !configurationKeys.isDisjoint(with: keys) {
                throw CommandFailure("\(path) is a gestures configuration, not a recording; check it with 'gestures check-config \(path)'")
            }
            guard keys.contains("ndevices") || keys.contains("devices") else {
                throw CommandFailure("\(path) is neither a recording (JSON trace, libinput record YAML, evemu) nor a template library")
            }
            return .recording
        }
    }

    /// A JSON file: its `format` key says which; a stroke or a configuration is named as such.
    private static func jsonKind(prefix: Data, path: String, strokeHint: String) throws -> Kind {
        // A trace is JSON Lines: its first line is a whole object. A library
        // may be spread over many lines: then the whole file is read.
        let firstLine = prefix.prefix { $0 != UInt8(ascii: "\n") }
        var object = (try? JSONSerialization.jsonObject(with: firstLine)) as? [String: Any]
        if object == nil {
            let whole = try? EngineOptions.readSmallFile(
                path, what: "template library", limit: TemplateLibrary.Limits.standard.maximumBytes)
            object = whole.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
        }
        guard let object else {
            throw CommandFailure("\(path) starts like JSON but is not a JSON object; give a recording or a template library")
        }
        switch object["format"] as? String {
        case "gestures-trace"?:
            return .recording
        case TemplateLibrary.formatName?:
            return .templates
        case let other?:
            throw CommandFailure(
                "\(path) has \"format\": \(Excerpt.quoted(other)), neither a recording (\"gestures-trace\") nor a template library (\"\(TemplateLibrary.formatName)\")"
            )
        case nil:
            if object["points"] != nil { throw CommandFailure("\(path) is a JSON stroke, not a recording; \(strokeHint)") }
            if !configurationKeys.isDisjoint(with: object.keys) {
                throw CommandFailure("\(path) is a gestures configuration, not a recording; check it with 'gestures check-config \(path)'")
            }
            throw CommandFailure("\(path) has no \"format\" key, so it is neither a recording nor a template library")
        }
    }

    /// Top-level keys of the daemon's configuration that no recording has.
    static let configurationKeys: Set<String> = ["bindings", "actions", "engine", "mouse"]

    /// The top-level keys of YAML text (`version` for `version: 1`): a
    /// `libinput record` has `ndevices` and `devices`, a configuration `bindings`.
    private static func topLevelKeys(yamlPrefix: Data) -> Set<String> {
        Set(
            String(decoding: yamlPrefix, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line -> String? in
                guard let first = line.first, first.isLetter, let colon = line.firstIndex(of: ":") else { return nil }
                return String(line[..<colon])
            })
    }
}
