import CLibevdev
import Testing
import TouchInput

/// The key names the configuration reads are pure Swift (TouchInput); libevdev,
/// which the live daemon links, is the reference they are checked against.
@Suite("KeyNames: the kernel's key names, without libevdev")
struct KeyNamesTests {
    @Test("every key code has libevdev's name for it, and no other code has a name")
    func sameAsLibevdev() {
        var expected: [UInt16: String] = [:]
        for code in 1..<UInt16(KEY_MAX) {
            guard let pointer = libevdev_event_code_get_name(UInt32(EV.KEY), UInt32(code)) else { continue }
            let name = String(cString: pointer)
            if name.hasPrefix("KEY_") { expected[code] = String(name.dropFirst(4)).lowercased() }
        }
        #expect(expected.count > 400)
        for code in 0...UInt16(KEY_MAX) {
            #expect(KeyNames.name(of: code) == expected[code], "code \(code)")
        }
        #expect(KeyNames.all.count == expected.count)
    }

    @Test("names are read in any case, with or without KEY_; KEY_MAX is a limit, not a key")
    func lookUp() {
        #expect(KeyNames.code(named: "leftmeta") == 125)
        #expect(KeyNames.code(named: "KEY_LEFTMETA") == 125)
        #expect(KeyNames.code(named: "Right") == 106)
        #expect(KeyNames.code(named: "max") == nil)
        #expect(KeyNames.code(named: "super") == nil)
    }

    @Test(
        "the names people type for modifiers suggest the kernel's",
        arguments: [
            ("super", "leftmeta"), ("win", "leftmeta"), ("meta", "leftmeta"), ("ctrl", "leftctrl"),
            ("alt", "leftalt"), ("shift", "leftshift"), ("SUPER", "leftmeta"), ("rihgt", "right"), ("lefmeta", "leftmeta"),
        ])
    func aliases(typed: String, suggested: String) {
        #expect(KeyNames.closedWords.suggestion(for: typed) == suggested)
    }

    @Test("a name written with KEY_ gets its suggestion too")
    func prefixedSuggestion() {
        #expect(KeyNames.problem("KEY_LEFTMTEA").hasPrefix("unknown key 'KEY_LEFTMTEA'; did you mean 'leftmeta'?"))
    }

    @Test("no alias is itself a key name")
    func aliasesAreNotKeys() {
        for alias in KeyNames.aliases.keys { #expect(KeyNames.code(named: alias) == nil, "\(alias)") }
        for target in KeyNames.aliases.values { #expect(KeyNames.code(named: target) != nil, "\(target)") }
    }
}
