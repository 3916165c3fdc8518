import EvdevInput
import Testing

@Suite struct KeyNamesTests {
    @Test("KEY_MAX, the bound of the codes, is no key name (issue 26)")
    func keyMaxIsNoKey() {
        #expect(KeyNames.code(named: "max") == nil)
        #expect(KeyNames.code(named: "KEY_MAX") == nil)
        #expect(KeyNames.code(named: "leftmeta") == 125)
        #expect(KeyNames.name(of: 0x2ff) == nil)
    }
}
