import Testing

@testable import Validation

@Suite struct EmailAddressTests {
    @Test(arguments: [
        "ada@example.org",
        "a@b",
        "first.last+tag@sub.example.co",
        "x!#$%&'*+/=?^_`{|}~-@example.org",
        ".dots.anywhere.@example.org",
        "ada@a-b.example",
        "ada@" + String(repeating: "a", count: 63) + ".org",
    ])
    func acceptsValidAddress(_ address: String) {
        #expect(EmailAddress.isValid(address))
    }

    @Test(arguments: [
        "",
        "ada",
        "@example.org",
        "ada@",
        "ada@@example.org",
        "ada@example..org",
        "ada@.example.org",
        "ada@example.org.",
        "ada@-example.org",
        "ada@example-.org",
        "ada@exa_mple.org",
        "a da@example.org",
        "adä@example.org",
        "ada@" + String(repeating: "a", count: 64) + ".org",
    ])
    func rejectsInvalidAddress(_ address: String) {
        #expect(!EmailAddress.isValid(address))
    }

    @Test func longValueIsCheckedInOnePass() {
        // A shape that makes a backtracking email pattern slow; the loop reads each byte once.
        let value = String(repeating: "a.", count: 50_000) + "@" + String(repeating: "a-", count: 30) + "!"
        #expect(!EmailAddress.isValid(value))
    }
}
