import EvdevInput
import Foundation
import GestureRecognition
import GestureTraces
import TouchInput

/// Checks of the one stroke rule on the real kernel: `gestures train
/// --device` on a touchscreen draws its samples through the daemon's own
/// reader and engine, and refuses a stroke the daemon could never fire.
extension VMSuite {
    /// `gestures train --device` on a touchscreen: a straight drag is refused
    /// with the rule that rejects it (too narrow), and a circle drawn next
    /// is the sample.
    func trainOnTouchscreen() throws {
        let screen = try VirtualDevice(devices.touchscreen)
        let node = screen.devnode!
        let library = "/tmp/trained-touch.json"
        unlink(library)
        let circle = try Trace.load(contentsOf: URL(fileURLWithPath: VMSuite.tracePath("atmel.1-finger-stroke-circle")))
        let (status, out, err) = try runGestures([
            "train", "--library", library, "--name", "round", "--device", node,
            "--samples", "1", "--no-config",
        ]) { pid, stderr in
            try self.expect(stderr.waitFor("(1 of 1)"), "train never prompted")
            for frame in VMGestureWriter(info: self.devices.touchscreen).swipe(count: 1, steps: 20, firstID: 9100) {
                try screen.writeFrame(frame); usleep(VMSuite.frameSpacing)
            }
            try self.expect(VMSuite.waitUntil { stderr.contains("not taken: too narrow") }, "the drag was not refused")
            try self.write(circle, to: screen)
            _ = VMSuite.waitUntil { kill(pid, 0) != 0 }
        }
        try expect(status == 0, "status \(status): \(err)")
        try expect(out.contains("added 1 sample of 'round'") && err.contains("sample 1 of 1 added"), "stdout \(out), stderr \(err)")
        let trained = try TemplateLibrary(jsonData: Data(contentsOf: URL(fileURLWithPath: library)))
        try expect(trained.samples(named: "round").count == 1, "library: \(trained.names)")
        say(
            "VMTEST INFO train-device-touchscreen: a drag refused (\(err.split(separator: "\n").first { $0.contains("not taken") } ?? "")), a circle taken"
        )
    }
}
