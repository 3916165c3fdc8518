import CommandLineKit
import EvdevInput
import Foundation
import GestureTraces
import TouchInput

/// `gestures replay --uinput FILE`: creates a virtual device for each device of
/// a trace (any format `Trace.load` reads) and plays its frames with their
/// original timing, like `evemu-play` and `libinput replay`.
enum UinputReplay {
    /// What to play, and how.
    struct Options {
        /// The recording.
        var path: String
        /// How many times faster than recorded.
        var speed: Double
        /// The pause after creating the devices, so readers can open them.
        var waitMilliseconds: Int
        /// The pause after the last frame before the devices are removed.
        var lingerMilliseconds: Int
        /// The `--desc` file, for evemu events without a device description.
        var description: String?
    }

    static func run(_ options: Options) throws -> Int32 {
        let speed = options.speed
        try RecordingFile.checkDescription(options.description)
        let trace = try RecordingFile.load(options.path, description: options.description, options: ReplayCommand.options)

        var devices: [VirtualDevice] = []
        defer { for device in devices { device.destroy() } }
        for description in trace.devices {
            do { devices.append(try VirtualDevice(description)) } catch { throw CommandFailure(error.description) }
        }
        // A reader with no devices is an interruptible sleep: SIGINT/SIGTERM wake it.
        let sleeper: EvdevReader
        do { sleeper = try EvdevReader() } catch { throw CommandFailure(error.description) }
        let stop = StopSignals(waker: sleeper.waker)
        defer { stop.cancel() }
        func sleep(milliseconds: Double) throws -> Bool {
            guard milliseconds > 0 else { return true }
            // A gap of more than 100,000 years between frames (times at the ends of Int64) is waited as that long.
            do { return try !sleeper.wait(timeout: .microseconds(Int64(min(milliseconds, 3e15) * 1000))).woken } catch {
                throw CommandFailure(error.description)
            }
        }

        for (device, description) in zip(devices, trace.devices) {
            printError("gestures replay: \(device.devnode ?? "?") is \(description.name); \(counted(trace.frames.count, "frame")).")
        }
        guard try sleep(milliseconds: Double(options.waitMilliseconds)) else { return 130 }
        let start = DispatchTime.now().uptimeNanoseconds
        let firstTime = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        for frame in trace.frames {
            // A SYN_DROPPED marker (from a recording's resync) is not an event to play.
            guard frame.events.contains(where: { !($0.type == EV.SYN && $0.code == SYN.DROPPED) && !$0.isSynReport }) else { continue }
            let due = Double(EventTime.microseconds(from: firstTime, to: frame.events.first?.microseconds ?? firstTime)) / 1000 / speed
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
            guard try sleep(milliseconds: due - elapsed) else { return 130 }
            do { try devices[frame.device].writeFrame(frame.events) } catch { throw CommandFailure(error.description) }
        }
        _ = try sleep(milliseconds: Double(options.lingerMilliseconds))
        return 0
    }
}
