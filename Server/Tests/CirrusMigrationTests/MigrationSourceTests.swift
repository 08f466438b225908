import CirrusMigration
import Testing

@Suite("Migration sources")
struct MigrationSourceTests {
    @Test("the three sources are named as the --from option spells them")
    func sourcesAreNamedAsTheOptionSpellsThem() {
        #expect(MigrationSource.allCases.map(\.rawValue) == ["leancloud", "parse", "bmob"])
    }
}
