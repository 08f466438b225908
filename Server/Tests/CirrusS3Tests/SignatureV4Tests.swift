@testable import CirrusS3
import Foundation
import Testing

/// The examples of AWS's "Signature Calculations for the Authorization Header" and "Authenticating Requests: Using
/// Query Parameters" pages for S3, reproduced step by step.
@Suite("SigV4 signing")
struct SignatureV4Tests {
    static let signer = SignatureV4(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
    /// 2013-05-24T00:00:00Z, the time of every example.
    static let exampleDate = Date(timeIntervalSince1970: 1_369_353_600)
    static let signingDate = SigningDate(exampleDate)
    static let host = "examplebucket.s3.amazonaws.com"

    static func exampleRequest(_ method: String, _ path: String, query: [String: String] = [:], headers: [String: String] = [:],
                               payloadHash: String = SignatureV4.emptyPayloadHash) -> CanonicalRequest {
        let base = ["host": host, "x-amz-content-sha256": payloadHash, "x-amz-date": "20130524T000000Z"]
        return CanonicalRequest(method: method, path: path, query: query, headers: base.merging(headers) { $1 }, payloadHash: payloadHash)
    }

    @Test("the GET object example has AWS's canonical request, string to sign and signature")
    func getObject() {
        let request = Self.exampleRequest("GET", "/test.txt", headers: ["Range": "bytes=0-9"])
        #expect(request.text == """
            GET
            /test.txt

            host:examplebucket.s3.amazonaws.com
            range:bytes=0-9
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;range;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
        let stringToSign = Self.signer.stringToSign(request, date: Self.signingDate)
        #expect(stringToSign == """
            AWS4-HMAC-SHA256
            20130524T000000Z
            20130524/us-east-1/s3/aws4_request
            7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972
            """)
        #expect(Self.signer.signature(of: stringToSign, date: Self.signingDate) == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("signing headers adds the date, the payload hash and AWS's Authorization of the GET object example")
    func signedHeaders() {
        let headers = Self.signer.signedHeaders(
            method: "GET", path: "/test.txt", query: [:], headers: ["host": Self.host, "range": "bytes=0-9"],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.exampleDate)
        #expect(headers["x-amz-date"] == "20130524T000000Z")
        #expect(headers["x-amz-content-sha256"] == SignatureV4.emptyPayloadHash)
        #expect(headers["x-amz-security-token"] == nil)
        #expect(headers["authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("the PUT object example encodes the $ of the key and signs the payload hash of its body")
    func putObject() {
        let payloadHash = Hex.sha256("Welcome to Amazon S3.".utf8)
        #expect(payloadHash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let path = "/" + URIEncoding.encode("test$file.text", keepingSlashes: true)
        let request = Self.exampleRequest(
            "PUT", path, headers: ["Date": "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY"], payloadHash: payloadHash)
        #expect(request.text.hasPrefix("PUT\n/test%24file.text\n\ndate:Fri, 24 May 2013 00:00:00 GMT\n"))
        #expect(request.signedHeaders == "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class")
        #expect(Self.signer.stringToSign(request, date: Self.signingDate).hasSuffix("9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d"))
        #expect(Self.signer.authorization(request, date: Self.signingDate).hasSuffix("Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"))
    }

    @Test("a query parameter without a value is signed as name= (the GET bucket lifecycle example)")
    func bucketLifecycle() {
        let request = Self.exampleRequest("GET", "/", query: ["lifecycle": ""])
        #expect(request.canonicalQuery == "lifecycle=")
        #expect(Self.signer.stringToSign(request, date: Self.signingDate).hasSuffix("9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca"))
        #expect(Self.signer.authorization(request, date: Self.signingDate).hasSuffix("Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"))
    }

    @Test("query parameters are sorted by name (the list objects example)")
    func listObjects() {
        let request = Self.exampleRequest("GET", "/", query: ["prefix": "J", "max-keys": "2"])
        #expect(request.canonicalQuery == "max-keys=2&prefix=J")
        #expect(Self.signer.stringToSign(request, date: Self.signingDate).hasSuffix("df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7"))
        #expect(Self.signer.authorization(request, date: Self.signingDate).hasSuffix("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"))
    }

    @Test("a presigned GET URL matches AWS's query-parameter example, the signature last")
    func presignedExample() {
        let query = Self.signer.presignedQuery(method: "GET", path: "/test.txt", host: Self.host, expires: 86_400, date: Self.exampleDate)
        #expect(query == "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
            + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
            + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test("a session token is sent as x-amz-security-token and signed")
    func sessionToken() {
        var signer = Self.signer
        signer.sessionToken = "token/with+chars"
        let headers = signer.signedHeaders(
            method: "GET", path: "/test.txt", query: [:], headers: ["host": Self.host], payloadHash: SignatureV4.emptyPayloadHash, date: Self.exampleDate)
        #expect(headers["x-amz-security-token"] == "token/with+chars")
        #expect(headers["authorization"]?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,") == true)
        let query = signer.presignedQuery(method: "GET", path: "/test.txt", host: Self.host, expires: 60, date: Self.exampleDate)
        #expect(query.contains("&X-Amz-Security-Token=token%2Fwith%2Bchars&"))
    }

    @Test("header values are trimmed and inner runs of spaces are folded into one")
    func headerValues() {
        let request = CanonicalRequest(method: "GET", path: "", query: [:], headers: ["X-Custom": "  a   b  "], payloadHash: "hash")
        #expect(request.text == "GET\n/\n\nx-custom:a b\n\nx-custom\nhash")
    }

    @Test("URI encoding keeps only unreserved characters, with upper-case hex, and slashes in paths")
    func uriEncoding() {
        #expect(URIEncoding.encode("aZ09-._~ /+=&é") == "aZ09-._~%20%2F%2B%3D%26%C3%A9")
        #expect(URIEncoding.encode("files/a b.txt", keepingSlashes: true) == "files/a%20b.txt")
    }

    @Test("signing dates are written in UTC as yyyyMMdd'T'HHmmss'Z'", arguments: [
        (0.0, "19700101T000000Z"), (1_369_353_600, "20130524T000000Z"), (951_827_696.9, "20000229T123456Z"),
        (4_102_444_799, "20991231T235959Z"), (-1, "19691231T235959Z"),
    ])
    func signingDates(_ seconds: Double, _ expected: String) {
        #expect(SigningDate(Date(timeIntervalSince1970: seconds)).timestamp == expected)
    }
}
