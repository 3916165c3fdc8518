import GestureRecognition
import TouchInput

/// What a ``TracePicture`` draws, worked out from its frames and gestures
/// before any layout: one track per contact, gestures paired begin to end,
/// all times in milliseconds from the origin and clipped to the window.
struct TraceScene {
    /// One contact's life inside the window.
    struct Track {
        struct Sample {
            var milliseconds: Double
            var position: Point
        }
        var id: Int
        /// The positions inside the window, in time order.
        var samples: [Sample] = []
        /// The touch-down, when it falls inside the window.
        var touchDown: Sample?
        /// The lift-off (time of the first frame without the contact, last
        /// position), when it falls inside the window.
        var liftOff: Sample?
        /// When the decoder first called it a palm or resting thumb.
        var palmFromMilliseconds: Double?
        /// Frames in which a sample of this contact was discarded as a jump
        /// (the contact kept its last position there).
        var jumps: [Sample] = []
        /// The time of the contact's first and last sample inside the window.
        var first: Double { samples.first?.milliseconds ?? 0 }
        var last: Double { liftOff?.milliseconds ?? samples.last?.milliseconds ?? 0 }
    }

    /// A gesture: a begin and its end, or one event without phase.
    struct Gesture {
        var number: Int
        var begin: GestureEvent?
        var end: GestureEvent
        var beginMilliseconds: Double { (begin ?? end).timeMilliseconds }
        var endMilliseconds: Double { end.timeMilliseconds }
        /// Where the fingers were when it began and ended (centroid of the non-palm contacts).
        var beginPosition: Point?
        var endPosition: Point?
    }

    var title: String
    var device: DeviceDescription
    /// The unit of positions and sizes: `mm`, or `counts` for a mouse.
    var unit: String
    var size: (width: Double, height: Double)
    var start: Double
    var end: Double
    var recordingEnd: Double
    var tracks: [Track]
    var gestures: [Gesture]
    var discardedJumps: Int

    init(picture: TracePicture) {
        device = picture.device
        unit = picture.unit
        title = picture.title ?? picture.device.name
        let origin = picture.originMicroseconds
        let times = picture.frames.map { Double(EventTime.microseconds(from: origin, to: $0.microseconds)) / 1000 }
        recordingEnd = max(times.last ?? 0, picture.gestures.map(\.timeMilliseconds).max() ?? 0)
        let windowStart = picture.window.map { Self.milliseconds($0.lowerBound) }
        let windowEnd = picture.window.map { Self.milliseconds($0.upperBound) }
        start = windowStart ?? min(times.first ?? 0, 0)
        end = max(windowEnd ?? recordingEnd, start + 1)
        let inside = { (t: Double) in t >= (windowStart ?? -.infinity) && t <= (windowEnd ?? .infinity) }

        // Tracks: every frame, every contact; a contact missing from a frame has lifted.
        var tracksByID: [Int: Track] = [:]
        var order: [Int] = []
        var previous: [Int: Point] = [:]
        var jumps = 0
        for (index, frame) in picture.frames.enumerated() {
            let t = times[index]
            let present = Set(frame.contacts.map(\.id))
            for (id, position) in previous where !present.contains(id) && inside(t) {
                tracksByID[id]?.liftOff = Track.Sample(milliseconds: t, position: position)
            }
            if inside(t) { jumps += frame.discardedJumps }
            var current: [Int: Point] = [:]
            for contact in frame.contacts {
                current[contact.id] = contact.position
                let sample = Track.Sample(milliseconds: t, position: contact.position)
                if tracksByID[contact.id] == nil {
                    tracksByID[contact.id] = Track(id: contact.id)
                    if inside(t) { tracksByID[contact.id]!.touchDown = sample }
                }
                guard inside(t) else { continue }
                if contact.isPalm && tracksByID[contact.id]!.palmFromMilliseconds == nil {
                    tracksByID[contact.id]!.palmFromMilliseconds = t
                }
                // The decoder keeps a jumping contact where it was: an unmoved
                // contact in a frame that discarded a sample is the one.
                if frame.discardedJumps > 0, previous[contact.id] == contact.position {
                    tracksByID[contact.id]!.jumps.append(sample)
                }
                if tracksByID[contact.id]!.samples.isEmpty { order.append(contact.id) }
                tracksByID[contact.id]!.samples.append(sample)
            }
            previous = current
        }
        tracks = order.compactMap { tracksByID[$0] }
        discardedJumps = jumps

        size =
            picture.device.sizeMillimeters
            ?? {
                let points = tracksByID.values.flatMap { $0.samples.map(\.position) }
                return (max(10, (points.map(\.x).max() ?? 0) + 5), max(10, (points.map(\.y).max() ?? 0) + 5))
            }()

        // Gestures: a begin is closed by the next end of its type; updates are drawn through their end.
        var open: [GestureEvent.Kind: GestureEvent] = [:]
        var paired: [Gesture] = []
        for event in picture.gestures {
            switch event.phase {
            case .begin: open[event.type] = event
            case .update: continue
            case .end:
                paired.append(Gesture(number: 0, begin: open.removeValue(forKey: event.type), end: event))
            case nil:
                paired.append(Gesture(number: 0, begin: nil, end: event))
            }
        }
        // Where the fingers are: palms do not make gestures, so they do not count
        // (unless a frame holds nothing else).
        func centroids(includingPalms: Bool) -> [(Double, Point)] {
            picture.frames.enumerated().compactMap { index, frame in
                let used = frame.contacts.filter { includingPalms || !$0.isPalm }
                guard !used.isEmpty else { return nil }
                return (times[index], used.reduce(Point.zero) { $0 + $1.position } * (1 / Double(used.count)))
            }
        }
        let fingers = centroids(includingPalms: false), everything = centroids(includingPalms: true)
        let lowerBound = windowStart ?? -.infinity, upperBound = windowEnd ?? .infinity
        gestures =
            paired
            .filter { $0.endMilliseconds >= lowerBound && $0.beginMilliseconds <= upperBound }
            .enumerated().map { index, gesture in
                var numbered = gesture
                numbered.number = index + 1
                let epsilon = 0.001
                for centroids in [fingers, everything] where numbered.endPosition == nil {
                    if gesture.begin != nil {
                        let first = Self.firstIndex(in: centroids) { $0 >= gesture.beginMilliseconds - epsilon }
                        numbered.beginPosition = first < centroids.count ? centroids[first].1 : nil
                    }
                    let after = Self.firstIndex(in: centroids) { $0 > gesture.endMilliseconds + epsilon }
                    numbered.endPosition = after > 0 ? centroids[after - 1].1 : nil
                }
                return numbered
            }
    }

    /// How many contacts were palms or resting thumbs.
    var palmCount: Int { tracks.filter { $0.palmFromMilliseconds != nil }.count }

    /// The first index of time-ordered `items` whose time satisfies `isAtOrAfter`
    /// (a predicate false and then true along the times), or `items.count`.
    ///
    /// - Complexity: O(log *n*).
    static func firstIndex(in items: [(Double, Point)], where isAtOrAfter: (Double) -> Bool) -> Int {
        var low = 0, high = items.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(items[middle].0) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}

extension TraceScene.Gesture {
    /// One readable line: `swipe · 3 fingers · left · moved -31.5, 1.2 mm · 100–412 ms · completed`.
    var summary: String {
        var parts = [end.type.rawValue + (end.name.map { " \"\($0)\"" } ?? "")]
        // A mouse's strokes are drawn with a button, not fingers.
        parts.append(end.source == .mouse ? "mouse" : "\(end.fingers) finger\(end.fingers == 1 ? "" : "s")")
        if let direction = end.direction { parts.append(direction.rawValue.replacingOccurrences(of: "_", with: "-")) }
        if let edge = end.edge { parts.append("from the \(edge.rawValue) edge") }
        if let dx = end.dxMillimeters, let dy = end.dyMillimeters {
            parts.append("moved \(SVG.decimal(dx, digits: 1)), \(SVG.decimal(dy, digits: 1)) mm")
        }
        if let scale = end.scale { parts.append("scale \(SVG.decimal(scale, digits: 2))") }
        if let angle = end.angleDegrees { parts.append("angle \(SVG.decimal(angle, digits: 1))°") }
        if let template = end.template { parts.append("template \(template)") }
        if let score = end.score { parts.append("score \(SVG.decimal(score, digits: 3))") }
        if begin != nil {
            parts.append("\(SVG.decimal(beginMilliseconds, digits: 1))–\(SVG.decimal(endMilliseconds, digits: 1)) ms")
        } else {
            parts.append("at \(SVG.decimal(endMilliseconds, digits: 1)) ms")
        }
        if end.cancelled == true { parts.append("cancelled") } else if end.phase == .end { parts.append("completed") }
        return parts.joined(separator: " · ")
    }

    var isCancelled: Bool { end.cancelled == true }
}
