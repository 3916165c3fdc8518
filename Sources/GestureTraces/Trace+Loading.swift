import Foundation
import InputChecks
import TouchInput

extension Trace {
    /// Loads a trace from a JSON trace, a `libinput record` YAML file or an
    /// evemu recording, detecting the format from the content.
    ///
    /// An evemu `.events` file without a device description takes it from
    /// `deviceDescription` when given, else from the `.desc` file beside it
    /// named by the longest leading part of its name (see
    /// ``descriptionCandidates(of:)``): beside `Pad.desc` and
    /// `Pad.laptop.desc`, `Pad.laptop.scroll.events` uses `Pad.laptop.desc`.
    ///
    /// ```swift
    /// let trace = try Trace.load(contentsOf: URL(fileURLWithPath: "SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events"))
    /// print(trace.devices[0].kind, trace.frames.count)  // touchpad 81
    /// ```
    ///
    /// - Throws: ``TraceError`` with the file name and the line or frame at fault.
    public static func load(
        contentsOf url: URL, deviceDescription: URL? = nil,
        limits: TraceReader.Limits = .wholeTrace
    ) throws -> Trace {
        let path = url.path
        let data = try readData(url, limits: limits)
        guard let format = TraceFormat.detect(data.prefix(64 * 1024)) else {
            throw TraceError(data.isEmpty ? .emptyFile : .unknownFormat, file: path)
        }
        do {
            // Evemu events without a header take their device from the sibling .desc file.
            return try decode(data, as: format, limits: limits) { parsed in
                guard let sibling = deviceDescription ?? existingDescription(of: url) else {
                    throw TraceError(.missingDeviceDescription(expected: descriptionCandidatesText(of: url)))
                }
                let described: Evemu.Parsed
                do {
                    described = try Evemu.parse(try readData(sibling, limits: limits), maximumLineBytes: limits.maximumLineBytes)
                } catch let error as TraceError {
                    throw error.inFile(sibling.path)
                }
                guard let description = described.description else {
                    throw TraceError(.missingDeviceDescription(expected: sibling.lastPathComponent))
                }
                return try checked(Trace(device: description, events: described.events + parsed.events), limits: limits)
            }
        } catch let error as TraceError {
            throw error.inFile(path)
        }
    }

    /// Decodes a trace held in memory in `format` (detected from the content when nil).
    /// Evemu events without a description cannot be decoded this way.
    public static func decode(
        _ data: Data, format: TraceFormat? = nil,
        limits: TraceReader.Limits = .wholeTrace
    ) throws -> Trace {
        guard data.count <= limits.maximumFileBytes else {
            throw TraceError(.fileTooLarge(bytes: data.count, limit: limits.maximumFileBytes))
        }
        guard let format = format ?? TraceFormat.detect(data.prefix(64 * 1024)) else {
            throw TraceError(data.isEmpty ? .emptyFile : .unknownFormat)
        }
        return try decode(data, as: format, limits: limits) { _ in
            throw TraceError(.missingDeviceDescription(expected: "device description (N:, I:, B:, A: lines)"))
        }
    }

    /// Decodes `data` in `format`; evemu events without a device description
    /// are handed to `undescribedEvemu`, which finds the device or throws.
    private static func decode(
        _ data: Data, as format: TraceFormat, limits: TraceReader.Limits,
        undescribedEvemu: (Evemu.Parsed) throws -> Trace
    ) throws -> Trace {
        switch format {
        case .json:
            return try decodeJSON(data, limits: limits)
        case .libinput:
            guard data.count <= limits.maximumLibinputRecordBytes else {
                throw TraceError(.fileTooLarge(bytes: data.count, limit: limits.maximumLibinputRecordBytes))
            }
            return try LibinputRecord.parse(data, limits: limits)
        case .evemu:
            let parsed = try Evemu.parse(data, maximumLineBytes: limits.maximumLineBytes)
            guard let description = parsed.description else { return try undescribedEvemu(parsed) }
            return try checked(Trace(device: description, events: parsed.events), limits: limits)
        }
    }

    /// The trace encoded in `format`.
    ///
    /// - Throws: ``TraceError/Kind/cannotExport(_:)`` for evemu with other than one device.
    public func encoded(as format: TraceFormat) throws -> Data {
        switch format {
        case .json:
            return jsonData()
        case .libinput:
            return Data(LibinputRecord.encode(self))
        case .evemu:
            guard devices.count == 1 else {
                throw TraceError(.cannotExport("evemu holds exactly one device and this trace has \(devices.count)"))
            }
            return Data(Evemu.encode(device: devices[0], events: events(ofDevice: 0)))
        }
    }

    /// Writes the trace to `url` in `format` (from the extension when nil,
    /// JSON for unknown extensions) through ``OutputFile`` (atomically; not
    /// flushed to the disk first, as `Data.write` does not, which the trace
    /// format benchmark times).
    public func write(to url: URL, format: TraceFormat? = nil) throws {
        let format = format ?? TraceFormat(pathExtension: PathName.pathExtension(of: url.path)) ?? .json
        do {
            try OutputFile.write(try encoded(as: format), to: url.path, flush: false)
        } catch let error as TraceError {
            throw error.inFile(url.path)
        }
    }

    private static func readData(_ url: URL, limits: TraceReader.Limits) throws -> Data {
        do { return try InputFile.read(url, maximumBytes: limits.maximumFileBytes) } catch {
            switch error.problem {
            case .missing: throw TraceError(.unreadable(reason: "no such file"), file: url.path)
            case .directory: throw TraceError(.unreadable(reason: "it is a directory"), file: url.path)
            case .notARegularFile(let kind): throw TraceError(.unreadable(reason: "it is \(kind), not a regular file"), file: url.path)
            case .unreadable(let reason): throw TraceError(.unreadable(reason: reason), file: url.path)
            case .tooLarge(let bytes, let limit): throw TraceError(.fileTooLarge(bytes: bytes, limit: limit), file: url.path)
            }
        }
    }

    private static func decodeJSON(_ data: Data, limits: TraceReader.Limits) throws -> Trace {
        let reader = try TraceReader(data: data, limits: limits)
        return Trace(devices: reader.devices, frames: try reader.readAll())
    }

    /// Applies the limits that formats without their own checks need.
    private static func checked(_ trace: Trace, limits: TraceReader.Limits) throws -> Trace {
        for (index, frame) in trace.frames.enumerated() where frame.events.count > limits.maximumEventsPerFrame {
            throw TraceError(.tooManyEvents(limit: limits.maximumEventsPerFrame), frame: index)
        }
        for device in trace.devices {
            if let slots = device.absInfo[ABS.MT_SLOT], Int64(slots.maximum) + 1 > Int64(limits.maximumSlots) {
                throw TraceError(.tooManySlots(found: Int(Int64(slots.maximum) + 1), limit: limits.maximumSlots))
            }
        }
        return trace
    }
}
