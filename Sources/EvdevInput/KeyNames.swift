internal import CLibevdev
import TouchInput

/// The kernel's names of keys, as configurations write them: `leftmeta` for
/// `KEY_LEFTMETA`, `right` for `KEY_RIGHT` (any case; the `KEY_` prefix may
/// be written too). Taken from libevdev's table, so every key the kernel
/// knows has its name.
///
///     KeyNames.code(named: "leftmeta")   // 125
///     KeyNames.name(of: 106)             // "right"
public enum KeyNames {
    /// Every key name, lower case, without `KEY_`, in code order.
    /// The corresponding C function is `libevdev_event_code_get_name`.
    public static let all: [String] = table.map(\.name)

    /// The code of the key `name` (`leftmeta`, `KEY_LEFTMETA`, `LeftMeta`), or nil.
    public static func code(named name: String) -> UInt16? {
        var key = name.lowercased()
        if key.hasPrefix("key_") { key.removeFirst(4) }
        return codes[key]
    }

    /// The name of key `code` (`right`), or nil when the kernel names none.
    public static func name(of code: UInt16) -> String? {
        table.first { $0.code == code }?.name
    }

    private static let table: [(name: String, code: UInt16)] = {
        var result: [(String, UInt16)] = []
        // Below KEY_MAX: libevdev names KEY_MAX itself, which is a bound, not a key.
        for code in 1..<UInt16(KEY_MAX) {
            guard let pointer = libevdev_event_code_get_name(UInt32(EV.KEY), UInt32(code)) else { continue }
            let name = String(cString: pointer)
            guard name.hasPrefix("KEY_") else { continue }
            result.append((String(name.dropFirst(4)).lowercased(), code))
        }
        return result
    }()

    private static let codes: [String: UInt16] = Dictionary(table.map { ($0.name, $0.code) }, uniquingKeysWith: { first, _ in first })
}
