import Cirrus
import CirrusTesting
import Foundation
import Testing

/// A subclass with typed fields.
final class Product: LCObject, @unchecked Sendable {
    @LCField("name") var name: LCString?
    @LCField("price") var price: LCNumber?
    @LCField("maker") var maker: Maker?

    override class func objectClassName() -> String { "Product" }
}

/// A subclass named after its Swift type.
final class Maker: LCObject, @unchecked Sendable {
    @LCField("title") var title: LCString?
}

/// Registered subclasses against an in-process server over HTTP.
@Suite("Subclasses on a live server")
struct SubclassLiveTests {
    @Test("a registered subclass saves its typed fields, and queries and pointers read back as it")
    func subclass() async throws {
        Product.register()
        Maker.register()
        try await withLiveApp { application, _ in
            let maker = Maker(application: application)
            maker.title = "ACME"
            let product = Product(application: application)
            product.name = "Anvil"
            product.price = 99.5
            product.maker = maker
            #expect(product.className == "Product" && maker.className == "Maker")
            try await product.save()
            #expect(maker.objectId != nil)
            let query = LCQuery(application: application, className: Product.objectClassName())
            query.whereKey("maker", .included)
            let found = try #require(try await query.getFirst() as? Product)
            #expect(found.name?.value == "Anvil")
            #expect(found.price?.value == 99.5)
            #expect(found.maker?.title?.value == "ACME")
            found.price = LCNumber(120)
            try await found.save()
            try await product.fetch()
            #expect(product.price?.value == 120)
        }
    }
}
