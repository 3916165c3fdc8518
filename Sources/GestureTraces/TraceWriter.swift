import Foundation
import TouchInput

/// Writes a JSON trace (version 1) frame by frame: a header line, one line
/// per frame, and an end line with the counts (see Recordings/README.md).
///
/// ```swift
/// let writer = try TraceWriter(url: url, devices: [pad])
/// try writer.write(Trace.Frame(device: 0, events: events))
/// try writer.finish()
/// ```
public final class TraceWriter {
    private let handle: FileHandle?
    private var buffer: [UInt8] = []
    private let deviceCount: Int
    private var frames = 0
    private var events = 0
    private var finished = false
    private static let flushBytes = 1 << 20

    /// Creates (or truncates) the file at `url` and writes the header.
    public convenience init(url: URL, devices: [DeviceDescription]) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw TraceError(.unreadable(reason: "cannot create the file"), file: url.path)
        }
        try self.init(handle: FileHandle(forWritingTo: url), devices: devices)
    }

    /// Writes to an open file handle (which the writer does not close).
    public init(handle: FileHandle?, devices: [DeviceDescription]) throws {
        self.handle = handle
        deviceCount = devices.count
        buffer.reserveCapacity(Self.flushBytes + 4096)
        buffer += TraceHeader.encode(devices)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Appends one frame as one line.
    public func write(_ frame: Trace.Frame) throws {
        precondition(frame.device >= 0 && frame.device < deviceCount, "frame refers to device \(frame.device) of \(deviceCount)")
        Self.appendLine(of: frame, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        frames += 1
        events += frame.events.count
        if buffer.count >= Self.flushBytes { try flush() }
    }

    /// One frame as the line `write` appends, without its newline: a JSON
    /// object `{"d":..,"t":..,"e":[..]}` (the daemon's socket sends it as a
    /// recorder's `events` line, Docs/Page.md).
    public static func frameLine(_ frame: Trace.Frame) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(24 + frame.events.count * 16)
        appendLine(of: frame, to: &line)
        return line
    }

    /// The header line of a trace of `devices`, without its newline.
    public static func headerLine(_ devices: [DeviceDescription]) -> [UInt8] { TraceHeader.encode(devices) }

    private static func appendLine(of frame: Trace.Frame, to buffer: inout [UInt8]) {
        let time = frame.events.first?.microseconds ?? 0
        buffer.append("{\"d\":")
        buffer.appendDecimal(frame.device)
        buffer.append(",\"t\":")
        buffer.appendDecimal(time)
        buffer.append(",\"e\":[")
        for (index, event) in frame.events.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(UInt8(ascii: "["))
            buffer.appendDecimal(Int(event.type)); buffer.append(UInt8(ascii: ","))
            buffer.appendDecimal(Int(event.code)); buffer.append(UInt8(ascii: ","))
            buffer.appendDecimal(event.value)
            if event.microseconds != time {
                buffer.append(UInt8(ascii: ","))
                buffer.appendDecimal(event.microseconds &- time)
            }
            buffer.append(UInt8(ascii: "]"))
        }
        buffer.append("]}")
    }

    /// Writes the end line and flushes; the trace is complete only after this.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        buffer.append("{\"end\":{\"frames\":")
        buffer.appendDecimal(frames)
        buffer.append(",\"events\":")
        buffer.appendDecimal(events)
        buffer.append("}}\n")
        try flush()
    }

    /// The bytes written so far when writing to memory (`handle` nil).
    var bytes: [UInt8] { buffer }

    /// Writes what is buffered to the file now (a live recorder calls it after
    /// each batch of frames, so the file keeps up with the device).
    public func flush() throws {
        guard let handle else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw TraceError(.unreadable(reason: "cannot write: \(error.localizedDescription)"))
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

extension Trace {
    /// The trace as JSON trace bytes (header, frames, end line).
    public func jsonData() -> Data {
        // In memory (no handle) nothing can fail to be written.
        let writer = try! TraceWriter(handle: nil, devices: devices)
        for frame in frames { try! writer.write(frame) }
        try! writer.finish()
        return Data(writer.bytes)
    }
}
