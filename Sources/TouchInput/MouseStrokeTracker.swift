import GestureRecognition

/// Turns a mouse's decoded frames into drawn strokes, as mouse-gesture tools
/// do: while a button (the right one by default) is held, relative motion
/// draws a stroke that `UnistrokeRecognizer` can recognise. A mouse's
/// ``GesturePipeline`` runs one (``MouseStrokeEngine``) on the frames of its
/// one ``MultitouchDecoder``.
///
/// Coordinates are the summed `REL_X`/`REL_Y` counts from where the button went
/// down (y grows downwards, as on screen). A press and release that moves less
/// than `minimumLengthCounts` is a click, not a stroke.
///
///     var tracker = MouseStrokeTracker()
///     tracker.process(frame)   // .began when the right button goes down
///     tracker.process(frame)   // nil while drawing
///     tracker.process(frame)   // .ended(points, lengthCounts:) when it comes up
public struct MouseStrokeTracker: Sendable {
    /// What a frame did to the stroke.
    public enum Event: Hashable, Sendable {
        /// The button went down: a stroke may begin.
        case began
        /// The button came up after a stroke: its points, in mouse counts, and its path length.
        case ended([Point], lengthCounts: Double)
        /// The button came up without enough motion to be a stroke.
        case click(lengthCounts: Double)
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
    private var wasHeld = false

    /// Creates a tracker drawing with `button`.
    public init(button: UInt16 = BTN.RIGHT, minimumLengthCounts: Double = 20) {
        self.button = button
        self.minimumLengthCounts = minimumLengthCounts
    }

    /// Whether a stroke is being drawn.
    public var isDrawing: Bool { points != nil }

    /// Applies one decoded frame; returns what it did to the stroke, if anything.
    public mutating func process(_ frame: TouchFrame) -> Event? {
        let delta = Point(x: Double(frame.relativeX), y: Double(frame.relativeY))
        if delta != .zero {
            position = position + delta
            if points != nil {
                points!.append(position)
                length += (delta.x * delta.x + delta.y * delta.y).squareRoot()
            }
        }
        let held = frame.buttons.contains(Buttons(code: button) ?? [])
        defer { wasHeld = held }
        if held && !wasHeld {
            points = [position]
            length = 0
            return .began
        }
        if !held && wasHeld {
            guard let drawn = points else { return nil }
            points = nil
            return length >= minimumLengthCounts ? .ended(drawn, lengthCounts: length) : .click(lengthCounts: length)
        }
        return nil
    }

    /// Takes the frame that brings the state up to date after lost events: a
    /// button it shows held went down during the loss, so it starts no stroke.
    public mutating func resynchronize(_ frame: TouchFrame) {
        points = nil
        wasHeld = frame.buttons.contains(Buttons(code: button) ?? [])
    }

    /// Abandons the stroke in progress (after `SYN_DROPPED` or when the device is gone).
    public mutating func cancel() -> Event? {
        guard points != nil else { return nil }
        points = nil
        return .cancelled
    }
}
