import TouchInput

extension DaemonConfiguration {
    /// Whether some binding has an input action (keys, a click, a drag).
    public var usesInputActions: Bool { bindings.contains { $0.action.input != nil } }
}

extension DaemonConfiguration {
    /// An action the daemon performs itself, through the virtual keyboard and
    /// pointer it owns, instead of running a command: the same on X11 and
    /// every Wayland compositor, with no other tool installed.
    public enum InputAction: Hashable, Sendable {
        /// A chord: the keys pressed in order, then released in reverse.
        case keys([Key])
        /// A click of a mouse button.
        case click(MouseSettings.Button)
        /// While a swipe moves, the pointer moves with it with the button
        /// held; the button is released a moment after the fingers lift.
        case drag(MouseSettings.Button)

        /// `keys leftmeta+right`, `click left`, `drag with the left button`: for logs.
        public var summary: String {
            switch self {
            case .keys(let keys): "keys " + keys.map(\.name).joined(separator: "+")
            case .click(let button): "click \(button.rawValue)"
            case .drag(let button): "drag with the \(button.rawValue) button"
            }
        }
    }

    /// A key by its kernel name and code: `leftmeta`, 125.
    public struct Key: Hashable, Sendable {
        /// The kernel's name without `KEY_`, lower case.
        public var name: String
        /// The key code.
        public var code: UInt16

        /// The key the kernel names `name` (`leftmeta`, `KEY_LEFTMETA`, `LeftMeta`),
        /// by its own name (`leftmeta`), or nil when it names none (``KeyNames``).
        public init?(named name: String) {
            guard let code = KeyNames.code(named: name), let canonical = KeyNames.name(of: code) else { return nil }
            self.init(name: canonical, code: code)
        }

        /// The key `name` with `code`.
        public init(name: String, code: UInt16) {
            self.name = name
            self.code = code
        }
    }
}
