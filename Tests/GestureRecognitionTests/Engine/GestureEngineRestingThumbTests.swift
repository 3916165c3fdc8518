import Testing

@testable import GestureRecognition

/// A still contact beside one finger seen moving: a resting thumb (left out,
/// the others scroll) only when it landed well before the finger or rests in
/// the thumb zone along the lower edge, landed no later than the finger;
/// otherwise the pivot of a pinch. On a 2-slot pad (the third finger counted
/// only) and on a pad that sees both.
@Suite struct GestureEngineRestingThumbTests {
    /// Where the still contact rests and when it lands (seconds; the moving
    /// finger lands at 0.5), and whether it is a thumb by the rule.
    static let cases: [(name: String, still: Point, lands: Double, isThumb: Bool)] = [
        ("landed 400 ms before, mid-pad", Point(x: 30, y: 30), 0.1, true),
        ("landed with it, 5 mm above the lower edge", Point(x: 30, y: 55), 0.47, true),
        ("landed with it, mid-pad", Point(x: 30, y: 30), 0.47, false),
        ("landed after it, 5 mm above the lower edge", Point(x: 30, y: 55), 0.53, false),
    ]

    @Test(arguments: cases.indices, [true, false])
    func stillContactBesideOneMovingFingerIsAThumbOnlyByTheRule(index: Int, fingerUnseen: Bool) {
        let (name, still, lands, isThumb) = Self.cases[index]
        // The moving finger scrolls down 25 mm from above the zone; with
        // `fingerUnseen` a second scrolling finger is only counted (2 slots),
        // else there is none and the still one is its only companion.
        var touch = SyntheticTouch()
        touch.fingers = [
            .init(id: 1, down: lands, up: 1.3, position: { _ in still }),
            .init(
                id: 2, down: 0.5, up: 1.2,
                position: { t in Point(x: 55, y: 12 + 25 * min(max((t - 0.55) / 0.4, 0), 1)) }),
        ]
        if fingerUnseen {
            touch.fingerCount = { t, seen in seen + (t >= 0.52 && t < 1.19 ? 1 : 0) }
        }
        let done = completions(run(touch.frames()).events).filter { $0.cancelled != true }
        if isThumb {
            // Left out: the others swipe (with an unseen finger), or the one finger points.
            let expected = fingerUnseen ? [GestureEvent.Kind.swipe] : []
            #expect(done.map(\.type) == expected, "\(name): \(done)")
            if fingerUnseen { #expect(done.first?.fingers == 2 && done.first?.direction == .down, "\(name): \(done)") }
        } else {
            #expect(done.map(\.type) == [.pinch], "\(name): \(done)")
        }
    }
}
