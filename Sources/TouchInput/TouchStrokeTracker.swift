import GestureRecognition

/// Turns touch frames into drawn strokes for training: from the moment
/// exactly `fingers` fingers touch until they all lift, the centroid of the
/// contacts draws a stroke, in millimetres, as the gesture engine sees it.
///
/// Fingers may land and lift one by one, as they do: before the stroke
/// starts, fewer fingers wait for the rest; once it has started, fewer
/// fingers are lifting and draw no more, and the stroke ends when the last
/// one lifts. More fingers than `fingers`, a finger put back while lifting,
/// or lost events abandon the stroke, and nothing is drawn until every
/// finger has lifted.
///
/// ```swift
/// var tracker = TouchStrokeTracker(fingers: 1)
/// for frame in frames {
///     if case .ended(let points)? = tracker.process(frame) { print(points.count) }
/// }
/// ```
public struct TouchStrokeTracker: Sendable {
    /// What a frame did to the stroke.
    public enum Event: Hashable, Sendable {
        /// The fingers lifted after a stroke: its points, in millimetres.
        case ended([Point])
        /// The fingers lifted before the stroke was `minimumLengthMillimeters` long.
        case tooShort
        /// The stroke was abandoned: the finger count changed or events were lost.
        case cancelled
    }

    /// The number of fingers that draw.
    public var fingers: Int
    /// The path length below which a touch is not a stroke, in millimetres.
    public var minimumLengthMillimeters: Double

    private var points: [Point]?
    private var waitingForLift = false
    /// While lifting: the fewest fingers seen since the count fell.
    private var liftingFingers: Int?

    /// A tracker for strokes drawn with `fingers` fingers.
    public init(fingers: Int, minimumLengthMillimeters: Double = 15) {
        self.fingers = fingers
        self.minimumLengthMillimeters = minimumLengthMillimeters
    }

    /// Applies one frame; returns what it did to the stroke, if anything.
    public mutating func process(_ frame: TouchFrame) -> Event? {
        if frame.followsDroppedEvents { return cancel() }
        let count = max(frame.fingerCount, frame.contacts.count)
        if count == 0 {
            waitingForLift = false
            liftingFingers = nil
            guard let drawn = points else { return nil }
            points = nil
            return UnistrokePipeline.pathLength(drawn) >= minimumLengthMillimeters ? .ended(drawn) : .tooShort
        }
        if waitingForLift { return nil }
        if count < fingers {
            guard points != nil else { return nil }  // the other fingers are still landing
            guard count <= liftingFingers ?? count else { return cancel() }  // a finger came back
            liftingFingers = count
            return nil
        }
        guard count == fingers, liftingFingers == nil else { return cancel() }
        let touching = frame.contacts.filter { !$0.isPalm }
        guard !touching.isEmpty else { return nil }
        let centroid = Point(x: touching.map(\.position.x).reduce(0, +) / Double(touching.count),
                             y: touching.map(\.position.y).reduce(0, +) / Double(touching.count))
        if points == nil { points = [] }
        if points!.last != centroid { points!.append(centroid) }
        return nil
    }

    /// Abandons the stroke in progress (lost events, the device went away);
    /// the fingers down now draw nothing until they all lift.
    public mutating func cancel() -> Event? {
        waitingForLift = true
        liftingFingers = nil
        guard points != nil else { return nil }
        points = nil
        return .cancelled
    }
}
