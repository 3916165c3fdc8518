import CommandLineKit
import Foundation
import GestureRecognition
import GestureTraces
import TouchInput

/// `gestures bench-engine`: measures the gesture engine's throughput and how
/// many frames it takes to begin a swipe or pinch once the fingers pass the threshold.
enum BenchEngineCommand: Command {
    static let name = "bench-engine"
    static let abstract = "Measure engine throughput (frames/s) and swipe/pinch begin delay (frames)."
    static let discussion = """
        Generates N frames (default 1000000) of mixed gestures (3-finger
        swipes, 2-finger pinches, 4-finger rotations, holds, taps, pointer
        motion, 8 ms apart) on the 5-slot Synaptics RMI4 touchpad described in
        rmi4.jsonl of the --devices folder, and reports frames/s through
        GestureEngine alone, and through MultitouchDecoder plus GestureEngine
        from the same frames as kernel events. Then replays every trace in the
        --recordings folder and, for each swipe or pinch begin,
        counts the frames from the first one where the fingers' centroid has
        travelled the swipe threshold (or their spread or angle passed the
        pinch thresholds), measured here from the decoded contacts, to the
        frame of the begin event. Build with -c release.
        """
    static let frames = Option("--frames", valueName: "N", .integer(in: 1000...), default: 1_000_000, help: "How many frames to generate.")
    static let recordings = Option("--recordings", valueName: "DIR", .directory, default: "Recordings/synthetic",
                                   help: "Traces to measure the begin delay on.")
    static let options = [frames.spec, recordings.spec, DeviceFiles.option.spec]

    /// How much to generate, and which recordings to measure.
    struct Options {
        var frameCount: Int
        var directory: String
        var devices: String?
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(frameCount: arguments[frames], directory: arguments[recordings], devices: arguments[DeviceFiles.option])
    }

    /// The device file of the Synaptics RMI4 TM3053 (97 x 53 mm, 5 slots, 20 units
    /// per mm from 0, as ``events(of:previous:into:)`` assumes).
    static let deviceName = "rmi4"

    /// The `index`-th generated frame: a cycle of six gestures of 60 frames
    /// each (the last frame of each lifts every finger), 8 ms apart.
    static func frame(_ index: Int) -> GestureFrame {
        let time = Duration.microseconds(Int64(index) * 8000)
        let gesture = (index / 60) % 6
        let step = index % 60
        guard step < 59 else { return GestureFrame(time: time, contacts: []) }
        let u = Double(max(step - 5, 0)) / 53   // still for 5 frames, then moving
        let wobble = Double(index % 7) * 0.05
        func contacts(_ n: Int, _ position: (Int) -> Point) -> [GestureFrame.Contact] {
            (0..<n).map { .init(id: (index / 60) * 8 + $0, position: position($0) + Point(x: wobble, y: 0)) }
        }
        let center = Point(x: 48, y: 26)
        func around(_ n: Int, _ k: Int, radius: Double, turn: Double) -> Point {
            let angle = 2 * Double.pi * Double(k) / Double(n) + turn
            return center + Point(x: cos(angle), y: sin(angle)) * radius
        }
        let list: [GestureFrame.Contact]
        switch gesture {
        case 0: list = contacts(3) { k in Point(x: 30 + 12 * Double(k), y: 20 + 20 * u) }                    // swipe down
        case 1: list = contacts(2) { k in around(2, k, radius: 8 + 10 * u, turn: 0) }                          // pinch out
        case 2: list = contacts(4) { k in around(4, k, radius: 15, turn: u * Double.pi / 3) }                  // rotate
        case 3: list = contacts(3) { k in Point(x: 30 + 12 * Double(k), y: 30) }                               // hold
        case 4: list = step < 12 ? contacts(2) { k in Point(x: 40 + 14 * Double(k), y: 30) } : []            // tap, then nothing
        default: list = contacts(1) { _ in Point(x: 20 + 50 * u, y: 40 - 10 * u) }                            // pointer
        }
        return GestureFrame(time: time, contacts: list)
    }

    /// The kernel events of `frame` on the RMI4 pad (protocol B, slot = contact order).
    static func events(of frame: GestureFrame, previous: inout [Int], into events: inout [InputEvent]) {
        let microseconds = Int64(frame.time.components.seconds) * 1_000_000 + frame.time.components.attoseconds / 1_000_000_000_000
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(InputEvent(type: type, code: code, value: value, microseconds: microseconds))
        }
        let ids = frame.contacts.map(\.id)
        for slot in ids.count..<max(previous.count, ids.count) {
            add(EV.ABS, ABS.MT_SLOT, Int32(slot)); add(EV.ABS, ABS.MT_TRACKING_ID, -1)
        }
        for (slot, contact) in frame.contacts.enumerated() {
            add(EV.ABS, ABS.MT_SLOT, Int32(slot))
            if slot >= previous.count || previous[slot] != contact.id { add(EV.ABS, ABS.MT_TRACKING_ID, Int32(contact.id & 0xffff)) }
            add(EV.ABS, ABS.MT_POSITION_X, Int32((contact.position.x * 20).rounded()))
            add(EV.ABS, ABS.MT_POSITION_Y, Int32((contact.position.y * 20).rounded()))
        }
        let tools = [BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP, BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP]
        if previous.count != ids.count {
            if previous.count > 0 { add(EV.KEY, tools[min(previous.count, 5) - 1], 0) }
            if ids.count > 0 { add(EV.KEY, tools[min(ids.count, 5) - 1], 1) }
            if previous.isEmpty || ids.isEmpty { add(EV.KEY, BTN.TOUCH, ids.isEmpty ? 0 : 1) }
        }
        add(EV.SYN, SYN.REPORT, 0)
        previous = ids
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func run(_ options: Options) throws -> Int32 {
        let count = options.frameCount
        let directory = options.directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("\(directory): no such folder of recordings; give one with --recordings DIR")
        }
        let device = try DeviceFiles(directory: options.devices).device(deviceName)
        guard let surface = GestureReplay.surface(for: device) else {
            throw CommandFailure("The device in \(deviceName).jsonl is not a touch device; the benchmark needs the RMI4 touchpad")
        }
        let clock = ContinuousClock()

        // 1. Frames straight into the engine.
        let frames = (0..<count).map(frame)
        var eventCount = 0
        var engine = GestureEngine(surface: surface)
        let engineTime = clock.measure {
            for frame in frames { eventCount &+= engine.process(frame).count }
            eventCount &+= engine.finish().count
        }
        print(String(format: "engine: %d frames -> %d gesture events in %.3f s: %.2f million frames/s (%.0f ns/frame)",
                     count, eventCount, seconds(engineTime), Double(count) / seconds(engineTime) / 1e6,
                     seconds(engineTime) / Double(count) * 1e9))

        // 2. The same frames as kernel events, through the decoder and the engine.
        var events: [InputEvent] = []
        events.reserveCapacity(count * 12)
        var previous: [Int] = []
        for frame in frames { Self.events(of: frame, previous: &previous, into: &events) }
        var decodedCount = 0
        var pipelineEvents = 0
        engine = GestureEngine(surface: surface)
        let pipelineTime = clock.measure {
            var decoder = MultitouchDecoder(device: device)
            for event in events {
                guard let touch = decoder.process(event) else { continue }
                decodedCount += 1
                pipelineEvents &+= engine.process(GestureReplay.gestureFrame(touch, origin: 0)).count
            }
            pipelineEvents &+= engine.finish().count
        }
        print(String(format: "decoder+engine: %d events -> %d frames -> %d gesture events in %.3f s: %.2f million frames/s (%.1f million events/s)",
                     events.count, decodedCount, pipelineEvents, seconds(pipelineTime),
                     Double(decodedCount) / seconds(pipelineTime) / 1e6, Double(events.count) / seconds(pipelineTime) / 1e6))
        if pipelineEvents != eventCount {
            print("note: the decoded frames gave \(pipelineEvents) gesture events, the generated ones \(eventCount) (positions rounded to device units)")
        }

        // 3. Begin delay over the recordings.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".expected.jsonl") }.sorted()
        var delays: [(file: String, type: GestureEvent.Kind, frames: Int, milliseconds: Double)] = []
        let progress = Progress("bench-engine: begin delay", total: names.count, unit: "recordings")
        for name in names {
            let trace = try Trace.load(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))
            delays += BeginDelay.measure(trace).map { (name, $0.type, $0.frames, $0.milliseconds) }
            progress.advance()
        }
        progress.finish()
        for type in [GestureEvent.Kind.swipe, .pinch] {
            let some = delays.filter { $0.type == type }
            guard !some.isEmpty else { continue }
            let frames = some.map(\.frames)
            var histogram: [Int: Int] = [:]
            for value in frames { histogram[value, default: 0] += 1 }
            print(String(format: "%@ begin delay over %d begins: mean %.2f frames (%.1f ms), max %d frames; frames:count %@",
                         type.rawValue, some.count, Double(frames.reduce(0, +)) / Double(frames.count),
                         some.map(\.milliseconds).reduce(0, +) / Double(some.count), frames.max() ?? 0,
                         histogram.keys.sorted().map { "\($0):\(histogram[$0]!)" }.joined(separator: " ")))
            for late in some where late.frames > 0 {
                print(String(format: "  %@: %d frames (%.1f ms)", late.file, late.frames, late.milliseconds))
            }
        }
        return 0
    }
}

/// The delay between the fingers passing a threshold and the engine's begin
/// event, measured from the decoded contacts independently of the engine.
enum BeginDelay {
    /// For each swipe or pinch begin in `trace`, the frames (and milliseconds)
    /// from the first frame, since the finger count last changed, where the
    /// centroid had travelled the swipe threshold, or the spread ratio or
    /// angle had passed the pinch thresholds together with the spread change
    /// plus rotation arc in millimetres; whichever came first.
    static func measure(_ trace: Trace, configuration: GestureEngine.Configuration = .init()) -> [(type: GestureEvent.Kind, frames: Int, milliseconds: Double)] {
        guard let device = trace.devices.first, let surface = GestureReplay.surface(for: device) else { return [] }
        let origin = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        var decoder = MultitouchDecoder(device: device)
        var engine = GestureEngine(surface: surface, configuration: configuration)
        var results: [(GestureEvent.Kind, Int, Double)] = []
        var start: (fingers: Int, ids: [Int], centroid: Point, spread: Double, offsets: [Point])?
        var crossed: (index: Int, time: Duration)?
        var index = 0
        for recorded in trace.frames where recorded.device == 0 {
            for event in recorded.events {
                guard let touch = decoder.process(event) else { continue }
                let frame = GestureReplay.gestureFrame(touch, origin: origin)
                let points = frame.contacts.map(\.position)
                let ids = frame.contacts.map(\.id)
                if !points.isEmpty {
                    let centroid = points.reduce(Point.zero, +) * (1 / Double(points.count))
                    let spread = points.map { $0.distance(to: centroid) }.reduce(0, +) / Double(points.count)
                    let offsets = points.map { $0 - centroid }
                    if let s = start, s.fingers == frame.fingerCount, s.ids == ids {
                        if crossed == nil {
                            let travel = s.centroid.distance(to: centroid)
                            let scale = s.spread > 0 ? spread / s.spread : 1
                            // The least-squares rotation of the offsets from the centroid.
                            var cross = 0.0, dot = 0.0
                            for (a, b) in zip(s.offsets, offsets) { cross += a.x * b.y - a.y * b.x; dot += a.x * b.x + a.y * b.y }
                            let degrees = abs(atan2(cross, dot)) * 180 / Double.pi
                            let shapeChange = s.spread * abs(scale - 1) + degrees * Double.pi / 180 * spread
                            let swipe = travel >= configuration.swipeThresholdMillimeters(fingers: frame.fingerCount)
                            let pinch = points.count > 1 && shapeChange >= configuration.pinchThresholdMillimeters
                                && (abs(scale - 1) >= configuration.pinchScaleThreshold || degrees >= configuration.rotationThresholdDegrees)
                            if swipe || pinch { crossed = (index, frame.time) }
                        }
                    } else {
                        start = (frame.fingerCount, ids, centroid, spread, offsets)
                        crossed = nil
                    }
                } else {
                    start = nil
                    crossed = nil
                }
                for gesture in engine.process(frame) where gesture.phase == .begin && (gesture.type == .swipe || gesture.type == .pinch) {
                    if let crossed {
                        results.append((gesture.type, index - crossed.index,
                                        Double((gesture.time - crossed.time) / .microseconds(1)) / 1000))
                    }
                }
                index += 1
            }
        }
        return results
    }
}
