import Foundation
import TouchInput

extension Trace {
    /// Loads a trace from a JSON trace, a `libinput record` YAML file or an
    /// evemu recording, detecting the format from the content.
    ///
    /// An evemu `.events` file without a device description is paired with
    /// the `.desc` file beside it named by the events file's name up to its
    /// first dot: `Pad.two-finger-scroll.events` -> `Pad.desc`.
    ///
    /// ```swift
    /// let trace = try Trace.load(contentsOf: URL(fileURLWithPath: "SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events"))
    /// print(trace.devices[0].kind, trace.frames.count)  // touchpad 81
    /// ```
    ///
    /// - Throws: ``TraceError`` with the file name and the line or frame at fault.
    public static func load(contentsOf url: URL, limits: TraceReader.Limits = TraceReader.Limits()) throws -> Trace {
        let path = url.path
        let data = try readData(url, limits: limits)
        guard let format = TraceFormat.detect(data.prefix(64 * 1024)) else {
            throw TraceError(data.isEmpty ? .emptyFile : .unknownFormat, file: path)
        }
        do {
            // Evemu events without a header take their device from the sibling .desc file.
            return try decode(data, as: format, limits: limits) { parsed in
                let sibling = siblingDescription(of: url)
                guard FileManager.default.fileExists(atPath: sibling.path) else {
                    throw TraceError(.missingDeviceDescription(expected: sibling.lastPathComponent))
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
    public static func decode(_ data: Data, format: TraceFormat? = nil,
                              limits: TraceReader.Limits = TraceReader.Limits()) throws -> Trace {
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
    private static func decode(_ data: Data, as format: TraceFormat, limits: TraceReader.Limits,
                               undescribedEvemu: (Evemu.Parsed) throws -> Trace) throws -> Trace {
        switch format {
        case .json:
            return try decodeJSON(data, limits: limits)
        case .libinput:
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

    /// Writes the trace to `url` in `format` (from the extension when nil, JSON for unknown extensions).
    public func write(to url: URL, format: TraceFormat? = nil) throws {
        let format = format ?? TraceFormat(pathExtension: url.pathExtension) ?? .json
        do {
            try encoded(as: format).write(to: url)
        } catch let error as TraceError {
            throw error.inFile(url.path)
        } catch {
            throw TraceError(.unreadable(reason: "cannot write: \(error.localizedDescription)"), file: url.path)
        }
    }

    /// The `.desc` file that describes the device of an evemu `.events` file without a header.
    ///
    /// It is the events file's name up to its first dot (`Pad.scroll.events`
    /// -> `Pad.desc`) when that file exists; else the longest `.desc` in the
    /// same folder whose name, followed by `-`, `_` or `.`, begins the events
    /// file's name (xorg-integration-tests' `Pad-tap.events` -> `Pad.desc`);
    /// else the first-dot name, which the caller reports as missing.
    public static func siblingDescription(of eventsURL: URL) -> URL {
        let name = eventsURL.lastPathComponent
        let folder = eventsURL.deletingLastPathComponent()
        let stem = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? name
        let byDot = folder.appendingPathComponent(stem + ".desc")
        if FileManager.default.fileExists(atPath: byDot.path) { return byDot }
        let candidates = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let prefixes = candidates.filter { $0.hasSuffix(".desc") }.map { String($0.dropLast(".desc".count)) }
            .filter { prefix in
                !prefix.isEmpty && name.count > prefix.count && name.hasPrefix(prefix)
                    && ["-", "_", "."].contains(name[name.index(name.startIndex, offsetBy: prefix.count)])
            }
        guard let best = prefixes.max(by: { $0.count < $1.count }) else { return byDot }
        return folder.appendingPathComponent(best + ".desc")
    }

    private static func readData(_ url: URL, limits: TraceReader.Limits) throws -> Data {
        do { return try InputFile.read(url, maximumBytes: limits.maximumFileBytes) } catch {
            switch error.problem {
            case .missing: throw TraceError(.unreadable(reason: "no such file"), file: url.path)
            case .directory: throw TraceError(.unreadable(reason: "it is a directory"), file: url.path)
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
