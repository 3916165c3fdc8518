import DesktopDaemon
import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
import StructuredDocuments

/// The recordings view's API: the live device recorded through the daemon
/// (it asks the daemon to `record` and writes what comes as a trace), the
/// recordings folder listed, a recording replayed through the daemon's own
/// engine with nothing run (the page draws it on a timeline), and
/// `libinput record` and evemu files imported as traces.
extension PageServer {
    /// The longest name a recording may have, without `.jsonl`.
    static let maximumRecordingName = 100

    /// Whether `name` can name a recording in the folder: letters, digits,
    /// `-`, `_` and `.`, not starting with `.`, at most 100 characters.
    static func isRecordingName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumRecordingName && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// A recording name from a file's name: its extension goes, and what cannot be in a name becomes `-`.
    static func recordingName(from text: String) -> String {
        var text = text
        if let dot = text.lastIndex(of: "."), dot != text.startIndex { text = String(text[..<dot]) }
        var name = String(
            text.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "-"
            })
        while name.hasPrefix(".") || name.hasPrefix("-") { name.removeFirst() }
        return name.isEmpty ? "recording" : String(name.prefix(maximumRecordingName))
    }

    private func recordingsFolder() throws(PageFailure) -> String {
        guard let folder = settings.recordingsFolder else {
            throw PageFailure("no recordings folder: neither XDG_DATA_HOME nor HOME is set")
        }
        return folder
    }

    private func body(of request: HTTPRequest) -> DocumentNode? { try? DocumentNode.parse(json: Data(request.body ?? [])) }

    private static func failure(_ status: Int, _ sentence: String) -> HTTPResponse {
        json(status, "{\"error\":\(JSONText.quoted(sentence))}")
    }

    /// `POST /api/recordings/start {"device":N}`: records device N from its
    /// next frame; with `"device":null`, the first device whose events come.
    func startRecordingAnswer(_ request: HTTPRequest) -> HTTPResponse {
        var device: Int?
        switch body(of: request)?["device"] {
        case .number(let number, _)?:
            guard let id = Int(exactly: number) else { return Self.failure(400, "the device to record is not a device's id") }
            device = id
        case .null?, nil: device = nil
        default: return Self.failure(400, "the device to record is not a device's id")
        }
        let started = recording.withLock { state -> Bool in
            guard state.recorder == nil else { return false }
            var recorder = ChannelRecorder(device: device)
            for line in state.devices.values { recorder.take(line) }
            state.recorder = recorder
            return true
        }
        guard started else { return Self.failure(409, "a recording is already running: stop it first") }
        let answer = ask(.record)
        if answer.status != 200 { recording.withLock { $0.recorder = nil } }
        return answer
    }

    /// `POST /api/recordings/stop {"name":...}`: stops recording and saves the trace in the folder.
    func stopRecordingAnswer(_ request: HTTPRequest) -> HTTPResponse {
        guard
            let taken = recording.withLock({ state -> ChannelRecorder? in
                defer { state.recorder = nil }
                return state.recorder
            })
        else { return Self.failure(409, "nothing is being recorded") }
        _ = ask(.stopRecording)
        var name = "recording-\(Self.stamp())"
        if case .string(let text)? = body(of: request)?["name"], !text.isEmpty {
            guard Self.isRecordingName(text) else {
                return Self.failure(422, "\(Excerpt.quoted(text)) cannot name a recording: use letters, digits, -, _ and .")
            }
            name = text
        }
        let trace: Trace
        do { trace = try taken.trace() } catch { return Self.failure(422, "nothing was saved: \(error)") }
        return save(trace, as: name, lost: taken.lost)
    }

    /// `POST /api/recordings/import {"name":..., "text":...}`: a trace in any format the readers take, saved as a JSON trace.
    func importRecordingAnswer(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = body(of: request), case .string(let text)? = body["text"] else {
            return Self.failure(400, "the request has no file text (text)")
        }
        var name = "imported-\(Self.stamp())"
        if case .string(let given)? = body["name"], !given.isEmpty { name = Self.recordingName(from: given) }
        let trace: Trace
        do { trace = try Trace.decode(Data(text.utf8)) } catch {
            return Self.failure(422, "\(Excerpt.quoted(name)) cannot be imported: \(error)")
        }
        return save(trace, as: name, lost: 0)
    }

    private func save(_ trace: Trace, as name: String, lost: Int) -> HTTPResponse {
        do {
            let folder = try recordingsFolder()
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Nothing is lost: a name taken already gets the first free number.
            var name = name, number = 1
            while FileManager.default.fileExists(atPath: folder + "/" + name + ".jsonl") {
                number += 1
                name = String(name.prefix(Self.maximumRecordingName - 4)).replacing(/-\d+$/, with: "") + "-\(number)"
            }
            let path = folder + "/" + name + ".jsonl"
            try trace.write(to: URL(fileURLWithPath: path), format: .json)
            return Self.json(
                200,
                "{\"saved\":\(JSONText.quoted(path)),\"name\":\(JSONText.quoted(name)),\"frames\":\(trace.frames.count),"
                    + "\"events\":\(trace.eventCount),\"seconds\":\(GestureEvent.decimalText(Double(trace.durationMicroseconds) / 1e6)),"
                    + "\"lost\":\(lost)}")
        } catch let failure as PageFailure {
            return Self.failure(409, failure.description)
        } catch {
            return Self.failure(500, "nothing was saved: \(error)")
        }
    }

    /// `GET /api/recordings`: the folder's recordings, newest first, with their device.
    func recordingsAnswer() -> HTTPResponse {
        let folder: String
        do { folder = try recordingsFolder() } catch { return Self.failure(409, error.description) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".jsonl") }
        var items: [(modified: Date, json: String)] = []
        let dates = ISO8601DateFormatter()
        for file in names.prefix(1000) {
            let name = String(file.dropLast(6))
            guard Self.isRecordingName(name) else { continue }
            let path = folder + "/" + file
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { continue }
            let modified = attributes?[.modificationDate] as? Date ?? .distantPast
            let bytes = attributes?[.size] as? Int ?? 0
            let device = (try? TraceReader(contentsOf: URL(fileURLWithPath: path)))?.devices.first?.name
            items.append(
                (
                    modified,
                    "{\"name\":\(JSONText.quoted(name)),\"bytes\":\(bytes),\"device\":\(device.map(JSONText.quoted) ?? "null"),"
                        + "\"modified\":\(JSONText.quoted(dates.string(from: modified)))}"
                ))
        }
        let sorted = items.sorted { $0.modified > $1.modified }.map(\.json)
        return Self.json(200, "{\"folder\":\(JSONText.quoted(folder)),\"recordings\":[\(sorted.joined(separator: ","))]}")
    }

    /// `POST /api/recordings/replay {"name":...}`: the lines the daemon's
    /// watchers would be handed while it replays the recording, with the
    /// configuration as it is now and nothing run.
    func replayRecordingAnswer(_ request: HTTPRequest) -> HTTPResponse {
        guard case .string(let name)? = body(of: request)?["name"], Self.isRecordingName(name) else {
            return Self.failure(400, "the request names no recording of the folder (name)")
        }
        let folder: String
        do { folder = try recordingsFolder() } catch { return Self.failure(409, error.description) }
        var configuration = DaemonConfiguration()
        if let path = settings.configurationPath, FileManager.default.fileExists(atPath: path) {
            do { configuration = try DaemonConfiguration.load(contentsOf: path) } catch {
                return Self.failure(409, "the configuration has errors, so the recording cannot be replayed through it: \(error)")
            }
        }
        let daemon = GestureDaemon(
            configuration: configuration, log: DaemonLog { _ in }, runsActions: false, configurationPath: settings.configurationPath)
        do {
            let lines = try daemon.watchedReplay(of: folder + "/" + name + ".jsonl")
            return Self.json(200, "{\"name\":\(JSONText.quoted(name)),\"lines\":[\(lines.joined(separator: ","))]}")
        } catch {
            return Self.failure(422, "\(error)")
        }
    }

    /// A moment as a name part: `20261204-201530`.
    private static func stamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }
}
