/// How the doctor's sentences list, count and round.
enum DoctorWords {
    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }

    /// `1 binding`, `2 bindings`.
    static func counted(_ count: Int, _ word: String) -> String {
        "\(count) \(word)\(count == 1 ? "" : "s")"
    }

    /// Finger counts as a compound adjective's first part: `3- and 4` (of `3- and 4-finger`).
    static func fingerList(_ fingers: Set<Int>) -> String {
        list(fingers.sorted().map(String.init)).replacingOccurrences(of: " and ", with: "- and ")
    }

    /// A length to a tenth, without a trailing `.0`: `93.5`, `51`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
