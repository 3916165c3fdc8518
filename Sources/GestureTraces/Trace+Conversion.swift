import Foundation
import InputChecks

extension Trace {
    /// The trace encoded in `format`, checked to read back as this same
    /// trace under `limits` (the whole-trace limits every command reads
    /// with): what `gestures convert` writes. Frames without events are not
    /// kept (no reader keeps them: they hold nothing); a trace without events
    /// becomes, in evemu, a device description (what `--desc` reads).
    ///
    ///     let yaml = try trace.converted(to: .libinput)
    ///     try Trace.decode(yaml, format: .libinput) == trace.withoutEmptyFrames  // true
    ///
    /// - Throws: ``TraceError/Kind/cannotExport(_:)`` saying what `format`
    ///   cannot hold (evemu: one device, frames that end at SYN_REPORT only,
    ///   a name on one line) or which limit the file would pass.
    public func converted(to format: TraceFormat, limits: TraceReader.Limits = .wholeTrace) throws(TraceError) -> Data {
        let original = withoutEmptyFrames
        let data: Data
        do { data = try original.encoded(as: format) } catch let error as TraceError { throw error } catch {
            throw TraceError(.cannotExport("\(error)"))
        }
        let limit = format == .libinput ? min(limits.maximumLibinputRecordBytes, limits.maximumFileBytes) : limits.maximumFileBytes
        guard data.count <= limit else {
            throw TraceError(
                .cannotExport(
                    "the \(format.rawValue) file would be \(data.count) bytes, over the limit of \(limit) bytes its reader takes; cut the recording or convert it to another format"
                ))
        }
        let readBack: Trace
        do { readBack = try Trace.decode(data, format: format, limits: limits) } catch {
            throw TraceError(
                .cannotExport("the \(format.rawValue) file would not read back (\(error)); this is a bug in the \(format.rawValue) writer"))
        }
        if let difference = original.firstDifference(from: readBack, format: format) { throw TraceError(.cannotExport(difference)) }
        return data
    }

    /// The trace without its frames of no events.
    public var withoutEmptyFrames: Trace {
        Trace(devices: devices, frames: frames.filter { !$0.events.isEmpty })
    }

    /// What `format` could not hold of this trace, as `other` (its read-back) shows; nil when they are equal.
    private func firstDifference(from other: Trace, format: TraceFormat) -> String? {
        let name = format.rawValue
        for (index, device) in devices.enumerated() where index >= other.devices.count || other.devices[index] != device {
            return
                "\(name) cannot hold device \(index)'s description as it is (its name \(Excerpt.quoted(device.name, limit: 80)), ids, event codes or axes would read back otherwise)"
        }
        if other.devices.count != devices.count {
            return "\(name) would read back \(other.devices.count) devices instead of \(devices.count)"
        }
        for (index, frame) in frames.enumerated() where index >= other.frames.count || other.frames[index] != frame {
            if format == .evemu, frame.events.last?.isSynReport != true, index + 1 < frames.count {
                return "evemu ends frames at SYN_REPORT only, and frame \(index) ends without one; convert it to json or libinput"
            }
            if format == .evemu, frame.events.dropLast().contains(where: \.isSynReport) {
                return "evemu ends frames at SYN_REPORT only, and frame \(index) holds one before its end; convert it to json or libinput"
            }
            if format == .libinput, frame.events.dropLast().contains(where: \.isSynReport) {
                return "libinput record ends frames at SYN_REPORT, and frame \(index) holds one before its end; convert it to json"
            }
            if format == .libinput, devices.count > 1 {
                return
                    "libinput record orders the frames of several devices by time, and frame \(index) (device \(frame.device)) is out of that order; convert it to json"
            }
            return "\(name) would read back frame \(index) otherwise (\(other.frames.count) frames instead of \(frames.count))"
        }
        if other.frames.count != frames.count { return "\(name) would read back \(other.frames.count) frames instead of \(frames.count)" }
        return nil
    }
}
