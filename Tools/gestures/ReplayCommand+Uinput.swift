import EvdevInput
import Foundation

/// `gestures replay --uinput FILE`: creates a virtual device from a recording's
/// description and plays its frames with their original timing, like
/// `evemu-play` and `libinput replay`.
enum UinputReplay {
    static func run(_ arguments: Arguments) throws -> Int32 {
        guard let path = arguments.value("--uinput") else { throw UsageError("missing --uinput FILE") }
        let speed = try arguments.value("--speed", default: 1.0, "a positive number") { Double($0).flatMap { $0 > 0 ? $0 : nil } }
        let wait = try arguments.value("--wait", default: 500, "milliseconds") { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        let linger = try arguments.value("--linger", default: 500, "milliseconds") { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw CommandFailure("Cannot read \(path)") }
        let recording: (header: EvdevRecording.Header, lines: [EvdevRecording.Line])
        do { recording = try EvdevRecording.decode(text) } catch { throw CommandFailure("\(path): \(error)") }

        let device: VirtualDevice
        do { device = try VirtualDevice(recording.header.device) } catch { throw CommandFailure(error.description) }
        defer { device.destroy() }
        // A reader with no devices is an interruptible sleep: SIGINT/SIGTERM wake it.
        let sleeper: EvdevReader
        do { sleeper = try EvdevReader() } catch { throw CommandFailure(error.description) }
        let stop = StopSignals(waker: sleeper.waker)
        defer { stop.cancel() }
        func sleep(milliseconds: Double) throws -> Bool {
            guard milliseconds > 0 else { return true }
            do { return try !sleeper.wait(timeout: .microseconds(Int64(milliseconds * 1000))).woken }
            catch { throw CommandFailure(error.description) }
        }

        printError("gestures replay: \(device.devnode ?? "?") is \(recording.header.device.name); \(recording.lines.count) frames.")
        guard try sleep(milliseconds: Double(wait)) else { return 130 }
        let start = DispatchTime.now().uptimeNanoseconds
        let firstTime = recording.lines.first?.frame.timeMicroseconds ?? 0
        for line in recording.lines {
            let due = Double(line.frame.timeMicroseconds - firstTime) / 1000 / speed
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
            guard try sleep(milliseconds: due - elapsed) else { return 130 }
            do { try device.writeFrame(line.frame.events) } catch { throw CommandFailure(error.description) }
        }
        _ = try sleep(milliseconds: Double(linger))
        return 0
    }
}
