import EvdevInput
import Foundation
import GestureRecognition
import TouchInput

/// Checks of mouse strokes: `gestures strokes` and `gestures train` on virtual mice.
extension VMSuite {
    /// `gestures strokes` on live mice: a circle drawn with the right button held is
    /// recognised; a stroke cut short by unplugging prints `cancelled` and the program
    /// keeps running; a mouse plugged in afterwards is picked up and its triangle recognised.
    func mouseStrokes() throws {
        var mouse: VirtualDevice? = try VirtualDevice(devices.mouse)
        let firstNode = mouse!.devnode!
        // The second circle is never released: the mouse is unplugged mid-stroke.
        func drawUnreleased(_ name: String, on device: VirtualDevice) throws {
            let template = TemplateLibrary.dollarShapes.samples(named: name)[0]
            try device.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 1, microseconds: 0)])
            for (last, point) in zip(template, template.dropFirst()) {
                try device.writeFrame([
                    InputEvent(type: EV.REL, code: REL.X, value: Int32((point.x - last.x).rounded()), microseconds: 0),
                    InputEvent(type: EV.REL, code: REL.Y, value: Int32((point.y - last.y).rounded()), microseconds: 0),
                ])
                usleep(2_000)  // a mouse's client buffer holds only 64 events
            }
        }
        let (status, out, err) = try runGestures(["strokes", "--count", "2"]) { pid, stderr in
            try self.expect(stderr.waitFor("reading \(firstNode) ("), "strokes never said it reads \(firstNode)")
            try self.draw("circle", on: mouse!)
            try drawUnreleased("circle", on: mouse!)
            usleep(100_000)
            mouse = nil  // destroyed mid-stroke
            try self.expect(VMSuite.waitUntil { !VMSuite.openFiles(pid).contains(firstNode) }, "strokes kept the gone device open")
            // Node numbers are reused: only a new 'reading' line counts.
            let announced = stderr.count("reading /")
            let second = try VirtualDevice(self.devices.mouse)
            let secondNode = second.devnode!
            try self.expect(
                VMSuite.waitUntil {
                    _ = stderr.contains("")  // reads what has arrived
                    return stderr.text.split(separator: "\n").filter { $0.contains("reading /") }
                        .dropFirst(announced).contains { $0.contains("reading \(secondNode) (") }
                }, "the new mouse was not picked up")
            try self.draw("triangle", on: second)
            _ = VMSuite.waitUntil { kill(pid, 0) != 0 }
        }
        let lines = out.split(separator: "\n").map(String.init)
        try expect(status == 0, "status \(status): \(err)")
        try expect(
            lines.count == 3 && lines[0].hasPrefix("circle (score") && lines[1] == "cancelled (the device is gone)"
                && lines[2].hasPrefix("triangle (score"), "output: \(lines)")
    }

    /// Draws `name` (a bundled $1 shape) with the right button held on a virtual mouse.
    func draw(_ name: String, on device: VirtualDevice) throws {
        let template = TemplateLibrary.dollarShapes.samples(named: name)[0]
        try device.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 1, microseconds: 0)])
        var last = template[0]
        for point in template.dropFirst() {
            let dx = (point.x - last.x).rounded(), dy = (point.y - last.y).rounded()
            last = Point(x: last.x + dx, y: last.y + dy)
            try device.writeFrame([
                InputEvent(type: EV.REL, code: REL.X, value: Int32(dx), microseconds: 0),
                InputEvent(type: EV.REL, code: REL.Y, value: Int32(dy), microseconds: 0),
            ])
            usleep(2_000)
        }
        try device.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 0, microseconds: 0)])
        usleep(200_000)  // longer than the unplug grace, so the stroke counts
    }

    /// `gestures train --device` records the drawn strokes (not clicks) into a library.
    ///
    /// Each stroke is drawn after the prompt for it appears, and the next
    /// one only after the tool says what became of it: a stroke the kernel
    /// dropped events of (the VM is slow) is cancelled by the tool and drawn
    /// again, up to three times.
    func trainOnDevice() throws {
        let mouse = try VirtualDevice(devices.mouse)
        let node = mouse.devnode!
        let library = "/tmp/trained.json"
        unlink(library)
        let (status, out, err) = try runGestures(["train", "--library", library, "--name", "vee", "--device", node, "--samples", "2"]) {
            pid, stderr in
            try self.expect(stderr.waitFor("(1 of 2)"), "train never prompted")
            try mouse.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 1, microseconds: 0)])
            try mouse.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 0, microseconds: 0)])  // a click
            for sample in 1...2 {
                var added = false
                for _ in 0..<3 where !added {
                    try self.expect(stderr.waitFor("(\(sample) of 2)"), "no prompt for sample \(sample)")
                    let cancelledBefore = stderr.count("cancelled")
                    try self.draw("v", on: mouse)
                    try self.expect(
                        VMSuite.waitUntil {
                            stderr.contains("sample \(sample) of 2 added") || stderr.count("cancelled") > cancelledBefore
                        }, "sample \(sample) was neither added nor cancelled")
                    added = stderr.contains("sample \(sample) of 2 added")
                }
            }
            _ = VMSuite.waitUntil { kill(pid, 0) != 0 }
        }
        try expect(status == 0, "status \(status): \(err)")
        try expect(
            out.contains("added 2 samples of 'vee'") && err.contains("(1 of 2)") && err.contains("sample 2 of 2 added"),
            "stdout \(out), stderr \(err)")
        let trained = try TemplateLibrary(jsonData: Data(contentsOf: URL(fileURLWithPath: library)))
        try expect(trained.samples(named: "vee").count == 2, "library: \(trained.names)")
    }

}
