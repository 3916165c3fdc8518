extension GestureEvent: CustomStringConvertible {
    /// One readable line: `812.4 ms  swipe end  3 fingers  left  -31.2, 0.4 mm`.
    public var description: String {
        var parts = ["\(GestureEvent.decimalText(timeMilliseconds)) ms", type.rawValue]
        if let phase { parts[1] += " \(phase.rawValue)" }
        parts.append(source == .mouse ? "mouse" : "\(fingers) finger\(fingers == 1 ? "" : "s")")
        if cancelled == true { parts.append("cancelled") }
        if let direction { parts.append(direction.rawValue) }
        if let edge { parts.append("from the \(edge.rawValue) edge") }
        if let dx = dxMillimeters, let dy = dyMillimeters {
            parts.append("\(GestureEvent.decimalText(dx)), \(GestureEvent.decimalText(dy)) mm")
        }
        if let scale { parts.append("scale \(GestureEvent.decimalText(scale))") }
        if let angleDegrees { parts.append("\(GestureEvent.decimalText(angleDegrees))°") }
        if let template { parts.append(template) }
        if let score { parts.append("score \(GestureEvent.decimalText(score))") }
        if let name { parts.append(name) }
        return parts.joined(separator: "  ")
    }
}
