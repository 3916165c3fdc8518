import Foundation
import TouchInput

/// Reads a JSON trace (version 1) frame by frame with bounded memory: a
/// 100 MB trace is read through a 1 MB buffer.
///
/// The header is read and checked (format, then version, then limits) when
/// the reader is created; ``nextFrame()`` then returns one frame per line
/// until the end line, which must be present and agree with what was read.
///
/// ```swift
/// let reader = try TraceReader(contentsOf: url)
/// var decoder = MultitouchDecoder(device: reader.devices[0])
/// while let frame = try reader.nextFrame() {
///     for event in frame.events { _ = decoder.process(event) }
/// }
/// ```
///
/// - Complexity: O(n) in the bytes read; no allocation per frame as long as
///   callers do not keep the frames (the event buffer is reused).
public final class TraceReader {
    /// Bounds on what a trace may hold, checked while reading.
    public struct Limits: Hashable, Sendable {
        /// The largest file, in bytes.
        public var maximumFileBytes: Int = 4 << 30
        /// The longest line (the header, or one frame), in bytes.
        public var maximumLineBytes: Int = 4 << 20
        /// The most devices in the header.
        public var maximumDevices: Int = 64
        /// The most events in one frame.
        public var maximumEventsPerFrame: Int = 65_536
        /// The most touch slots (contacts) a device may declare.
        public var maximumSlots: Int = DeviceDescription.maximumSlotCount
        /// The largest `libinput record` YAML file, in bytes: read whole
        /// into a document tree, it takes about 15 times its size.
        public var maximumLibinputRecordBytes: Int = 4 << 30

        public init() {}

        /// The limits for reading a whole trace into memory (``Trace/load(contentsOf:deviceDescription:limits:)``,
        /// what `replay`, `render`, `convert`, `train` and `info` do): 32 MiB
        /// (a JSON trace or evemu recording of that size takes about 170 MB
        /// decoded) and 16 MiB of `libinput record` YAML (about 240 MB as a
        /// tree), so that no whole read passes 500 MB; streaming a JSON
        /// trace with ``TraceReader`` keeps the 4 GiB of the defaults.
        public static let wholeTrace: Limits = {
            var limits = Limits()
            limits.maximumFileBytes = 32 << 20
            limits.maximumLibinputRecordBytes = 16 << 20
            return limits
        }()
    }

    /// The devices from the header.
    public let devices: [DeviceDescription]
    /// The 0-based index of the next frame.
    public private(set) var frameIndex = 0
    /// The events read so far.
    public private(set) var eventCount = 0
    /// The 1-based line of the last line read.
    public var lineNumber: Int { lines.lineNumber }

    private let lines: LineReader
    private let parser: FrameLineParser
    private let file: String?
    private let handle: FileHandle?
    private var events: [InputEvent] = []
    private var finished = false

    /// Opens a trace file and reads its header.
    public convenience init(contentsOf url: URL, limits: Limits = Limits()) throws {
        let path = url.path
        let handle: FileHandle, size: Int
        do { (handle, size) = try InputFile.open(path) } catch {
            throw TraceError(.unreadable(reason: error.message), file: path)
        }
        if size > limits.maximumFileBytes {
            try? handle.close()
            throw TraceError(.fileTooLarge(bytes: size, limit: limits.maximumFileBytes), file: path)
        }
        let lines = LineReader(
            handle: handle, maximumLineBytes: limits.maximumLineBytes,
            maximumTotalBytes: limits.maximumFileBytes)
        try self.init(lines: lines, limits: limits, file: path, handle: handle)
    }

    /// Reads a trace held in memory.
    public convenience init(data: Data, limits: Limits = Limits(), file: String? = nil) throws {
        guard data.count <= limits.maximumFileBytes else {
            throw TraceError(.fileTooLarge(bytes: data.count, limit: limits.maximumFileBytes), file: file)
        }
        try self.init(
            lines: LineReader(bytes: data, maximumLineBytes: limits.maximumLineBytes),
            limits: limits, file: file, handle: nil)
    }

    private init(lines: LineReader, limits: Limits, file: String?, handle: FileHandle?) throws {
        self.lines = lines
        self.file = file
        self.handle = handle
        parser = FrameLineParser(maximumEvents: limits.maximumEventsPerFrame)
        do {
            var header: Data?
            while header == nil {
                guard let line = try lines.nextLine({ Data($0) }) else {
                    throw TraceError(.emptyFile, file: file)
                }
                if line.contains(where: { $0 != 0x20 && $0 != 0x09 }) { header = line }
            }
            do {
                devices = try TraceHeader.decode(header!, limits: limits).devices
            } catch {
                throw TraceError(error, file: file, line: lines.lineNumber)
            }
        } catch let error as TraceError {
            try? handle?.close()
            throw file.map { error.inFile($0) } ?? error
        }
    }

    deinit {
        try? handle?.close()
    }

    /// The next frame, or nil after the end line.
    ///
    /// - Throws: ``TraceError`` naming the line and frame index when a line is
    ///   malformed, exceeds a limit, refers to an unknown device, or when the
    ///   file ends without (or continues after) its end line.
    public func nextFrame() throws -> Trace.Frame? {
        events.removeAll(keepingCapacity: true)
        while true {
            if finished {
                // Only blank lines may follow the end line.
                while let blank = try lines.nextLine({ line in !line.contains { $0 != 0x20 && $0 != 0x09 } }) {
                    if !blank { throw error(.dataAfterEnd) }
                }
                return nil
            }
            let parsed: FrameLineParser.Line?
            do {
                parsed = try lines.nextLine { line throws(TraceError.Kind) in try parser.parse(line, into: &events) }
            } catch let kind as TraceError.Kind {
                // A last line without its newline that does not parse was cut off.
                throw error(lines.lastLineWasUnterminated ? .truncated : kind)
            } catch let traceError as TraceError {
                throw file.map { traceError.inFile($0) } ?? traceError
            }
            guard let parsed else { throw error(.truncated) }
            switch parsed {
            case .blank:
                continue
            case .end(let frames, let eventTotal):
                guard frames == frameIndex else { throw error(.countMismatch(what: "frames", declared: frames, found: frameIndex)) }
                guard eventTotal == eventCount else { throw error(.countMismatch(what: "events", declared: eventTotal, found: eventCount)) }
                finished = true
            case .frame(let device):
                guard device < devices.count else { throw error(.unknownDevice(index: device, deviceCount: devices.count)) }
                if lines.lastLineWasUnterminated { throw error(.truncated) }
                frameIndex += 1
                eventCount += events.count
                return Trace.Frame(device: device, events: events)
            }
        }
    }

    /// Reads all remaining frames.
    public func readAll() throws -> [Trace.Frame] {
        var frames: [Trace.Frame] = []
        while let frame = try nextFrame() { frames.append(frame) }
        return frames
    }

    private func error(_ kind: TraceError.Kind) -> TraceError {
        let name: String? = (file?.isEmpty ?? true) ? nil : file
        return TraceError(kind, file: name, line: lines.lineNumber, frame: frameIndex)
    }
}
