import CommandLineKit
import EvdevInput
import Foundation
import GestureRecognition
import TouchInput

/// The live loop of `train --device` on a touchpad or touchscreen: decodes the
/// device's frames with `MultitouchDecoder` and hands each stroke drawn with
/// the engine's stroke finger count to the caller, until it has enough or Ctrl-C.
final class LiveTouchStrokes {
    private let reader: EvdevReader
    private let device: EvdevDevice
    private var decoder: MultitouchDecoder
    private var tracker: TouchStrokeTracker

    /// The fingers strokes are drawn with on `device`, from the engine configuration:
    /// `touchscreenStrokeFingers` or `touchpadStrokeFingers`.
    static func strokeFingers(_ device: DeviceDescription, _ configuration: GestureEngine.Configuration) throws -> Int {
        let kind: GestureSurface.Kind = device.kind == .touchscreen ? .touchscreen : .touchpad
        guard let fingers = configuration.strokeFingers(on: kind) else {
            throw CommandFailure("Strokes are off on \(kind == .touchpad ? "touchpads" : "touchscreens") in the engine configuration; set engine.\(kind == .touchpad ? "touchpadStrokeFingers" : "touchscreenStrokeFingers") in the configuration file (--config)")
        }
        return fingers
    }

    /// Reads `device` (already opened), drawing with `fingers` fingers.
    init(device: EvdevDevice, fingers: Int, minimumLengthMillimeters: Double) throws {
        self.device = device
        decoder = MultitouchDecoder(device: device.description)
        tracker = TouchStrokeTracker(fingers: fingers, minimumLengthMillimeters: minimumLengthMillimeters)
        do { reader = try EvdevReader(devices: [device]) } catch { throw CommandFailure(error.description) }
    }

    /// Runs until `handle` returns false or SIGINT/SIGTERM; returns the exit status
    /// (1 when the device went away).
    func run(_ handle: (TouchStrokeTracker.Event) -> Bool) throws -> Int32 {
        let stop = StopSignals(waker: reader.waker)
        defer { stop.cancel() }
        while true {
            let batch: EvdevReader.Batch
            do { batch = try reader.wait() } catch { throw CommandFailure(error.description) }
            if batch.woken { return 0 }
            for (_, output) in batch.outputs {
                if case .removed(let error) = output {
                    if let event = tracker.cancel() { _ = handle(event) }
                    printError("gestures train: \(error.description)")
                    return 1
                }
                for event in output.traceEvents {
                    guard let frame = decoder.process(event), let stroke = tracker.process(frame) else { continue }
                    guard handle(stroke) else { return 0 }
                }
            }
        }
    }
}
