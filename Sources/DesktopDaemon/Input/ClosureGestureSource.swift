/// A source whose whole work is a closure: for tests, and for wiring a new
/// input without a type of its own.
///
///     let source = ClosureGestureSource { sink in
///         sink.deliver(GestureEvent(type: .tap, time: .zero, fingers: 3), InputDevice(id: 0, name: "test"))
///     }
public struct ClosureGestureSource: GestureSource {
    private let body: @Sendable (GestureSink) throws -> Void

    /// A source running `body`.
    public init(_ body: @escaping @Sendable (GestureSink) throws -> Void) {
        self.body = body
    }

    /// Runs the closure.
    public func run(into sink: GestureSink) throws { try body(sink) }
}
