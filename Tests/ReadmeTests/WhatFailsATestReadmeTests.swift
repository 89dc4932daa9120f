import Testing
import Wiring
import WiringTestSupport

/// A cache the app no longer registers, which an old test still overrides.
final class LegacyNotesCache {}

/// The examples of the WhatFailsATest article.
@Suite struct WhatFailsATestReadme {
    @Test func aTestThatExpectsAFindingAllowsItAndAssertsIt() {
        let legacy = TestContainer(base: makeNotesContainer())
        legacy.wiringFindings(.allow("override-of-unregistered"))       // on one test container
        legacy.override(LegacyNotesCache.self) { _ in LegacyNotesCache() }
        #expect(legacy.warnings.map(\.identifier) == ["override-of-unregistered"])
    }
}
