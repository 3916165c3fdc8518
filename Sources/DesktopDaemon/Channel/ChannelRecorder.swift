import Foundation
import GestureTraces
import StructuredDocuments

/// A trace of one device made from a daemon's lines (``ChannelMessage``),
/// as a client of its socket reads them while it asked to `record`: the
/// device line's `trace_header` and each `events` line, which is a trace's
/// own frame line. `gestures ui` records the live device this way (a
/// grabbed device cannot be read by a second process).
///
///     var recorder = ChannelRecorder(device: 1)   // or nil: the first device whose events come
///     connection lines -> recorder.take(line)
///     let trace = try recorder.trace()   // read back by the trace reader, as any file is
public struct ChannelRecorder: Sendable {
    /// The daemon's id of the device recorded; nil until the first events
    /// come when the recorder was made for whichever device sends first.
    public private(set) var device: Int?
    /// The most frames kept: 30 minutes at 120 frames a second. Frames past it are counted as lost.
    public static let maximumFrames = 216_000
    /// The trace header line of each device whose device line came.
    private var headers: [Int: String] = [:]
    /// The recorded device's trace header line, once its device line came.
    public var header: String? { device.flatMap { headers[$0] } }
    /// The frame lines kept, in order.
    public private(set) var frames: [String] = []
    /// Frames the daemon sent that did not arrive (gaps in its numbering) or were past ``maximumFrames``.
    public private(set) var lost = 0
    private var lastSequence: Int?
    private var eventCount = 0

    /// A recorder of device `device` (nil: the first device whose events come), with nothing yet.
    public init(device: Int?) { self.device = device }

    /// Takes one line of the daemon's; lines of other devices and of other kinds are left.
    public mutating func take(_ line: String) {
        if line.hasPrefix("{\"device\":") {
            guard let node = try? DocumentNode.parse(json: Data(line.utf8)), let object = node["device"],
                case .number(let id, _)? = object["id"], let id = Int(exactly: id), let header = object["trace_header"]
            else { return }
            headers[id] = header.jsonText
            return
        }
        guard line.hasPrefix(device.map { "{\"events\":{\"device\":\($0)," } ?? "{\"events\":{"),
            let node = try? DocumentNode.parse(json: Data(line.utf8)), let events = node["events"],
            case .number(let number, _)? = events["seq"], let sequence = Int(exactly: number),
            case .number(let id, _)? = events["device"], let id = Int(exactly: id)
        else { return }
        if device == nil { device = id }
        guard id == device else { return }
        if let lastSequence, sequence > lastSequence + 1 { lost += sequence - lastSequence - 1 }
        lastSequence = sequence
        guard frames.count < Self.maximumFrames else {
            lost += 1
            return
        }
        if case .array(let list)? = events["e"] { eventCount += list.count }
        frames.append(events.jsonText)
    }

    /// The trace recorded so far, read back by the trace reader (so that
    /// what is saved is what every command reads). Throws when no device
    /// line or no frame came, or the lines are not a trace.
    public func trace() throws -> Trace {
        guard let device else {
            throw TraceError(.unreadable(reason: "no device sent a frame while recording: touch the device while it records"))
        }
        guard let header else { throw TraceError(.unreadable(reason: "the daemon described no device \(device)")) }
        guard !frames.isEmpty else {
            throw TraceError(.unreadable(reason: "no frame of device \(device) came while recording: touch the device while it records"))
        }
        let end = "{\"end\":{\"frames\":\(frames.count),\"events\":\(eventCount)}}"
        let text = ([header] + frames + [end]).joined(separator: "\n") + "\n"
        return try Trace.decode(Data(text.utf8), format: .json)
    }
}
