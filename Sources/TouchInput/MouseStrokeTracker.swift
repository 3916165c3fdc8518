import GestureRecognition

/// Turns a mouse's frames into drawn strokes, as mouse-gesture tools do: while
/// a button (the right one by default) is held, relative motion draws a stroke
/// that `UnistrokeRecognizer` can recognise.
///
/// Coordinates are the summed `REL_X`/`REL_Y` counts from where the button went
/// down (y grows downwards, as on screen). A press and release that moves less
/// than `minimumLengthCounts` is a click, not a stroke.
///
///     var tracker = MouseStrokeTracker()
///     tracker.process(frame)   // .began when the right button goes down
///     tracker.process(frame)   // nil while drawing
///     tracker.process(frame)   // .ended(points) when it comes up
public struct MouseStrokeTracker: Sendable {
    /// What a frame did to the stroke.
    public enum Event: Hashable, Sendable {
        /// The button went down: a stroke may begin.
        case began
        /// The button came up after a stroke: its points, in mouse counts.
        case ended([Point])
        /// The button came up without enough motion to be a stroke.
        case click
        /// The stroke was abandoned (events were lost, or the device went away).
        case cancelled
    }

    /// The button that draws (`BTN_RIGHT` by default).
    public var button: UInt16
    /// The path length, in mouse counts, below which a press is a click.
    public var minimumLengthCounts: Double

    private var position = Point.zero
    private var points: [Point]?
    private var length = 0.0

    /// Creates a tracker drawing with `button`.
    public init(button: UInt16 = BTN.RIGHT, minimumLengthCounts: Double = 20) {
        self.button = button
        self.minimumLengthCounts = minimumLengthCounts
    }

    /// Whether a stroke is being drawn.
    public var isDrawing: Bool { points != nil }

    /// Applies one frame; returns what it did to the stroke, if anything.
    public mutating func process(_ frame: [InputEvent]) -> Event? {
        var delta = Point.zero
        var buttonChange: Int32?
        for event in frame {
            switch (event.type, event.code) {
            case (EV.REL, REL.X): delta.x += Double(event.value)
            case (EV.REL, REL.Y): delta.y += Double(event.value)
            case (EV.KEY, button) where event.value != 2: buttonChange = event.value
            default: break
            }
        }
        if delta != .zero {
            position = position + delta
            if points != nil {
                points!.append(position)
                length += (delta.x * delta.x + delta.y * delta.y).squareRoot()
            }
        }
        switch buttonChange {
        case 1?:
            points = [position]
            length = 0
            return .began
        case 0?:
            guard let drawn = points else { return nil }
            points = nil
            return length >= minimumLengthCounts ? .ended(drawn) : .click
        default:
            return nil
        }
    }

    /// Abandons the stroke in progress (after `SYN_DROPPED` or when the device is gone).
    public mutating func cancel() -> Event? {
        guard points != nil else { return nil }
        points = nil
        return .cancelled
    }
}
