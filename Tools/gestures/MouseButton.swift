import CommandLineKit
import TouchInput

/// The mouse button held while drawing a stroke (`strokes`, `train --device`).
enum MouseButton: String, CaseIterable, Sendable {
    case right
    case middle
    case left

    /// The kernel's key code of the button.
    var code: UInt16 {
        switch self {
        case .right: BTN.RIGHT
        case .middle: BTN.MIDDLE
        case .left: BTN.LEFT
        }
    }

    /// The `--button right|middle|left` option (default right).
    static func option(help: String) -> Option<MouseButton> {
        Option("--button", .choice(), default: .right, help: help)
    }
}
