import AsyncHTTPClient
@testable import CirrusS3
import Foundation
import NIOCore
import NIOHTTP1

/// Calls of moto's IAM query API, made while its signature checks are still off, so any key signs them.
struct MotoIAM: Sendable {
    let base: URL
    let region: String

    /// Creates the user `cirrus` with an inline policy allowing `s3:*` and returns a new access key of it.
    func createUserAllowedS3() async throws -> (accessKeyID: String, secretAccessKey: String) {
        _ = try await call("CreateUser", ["UserName": "cirrus"])
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#
        _ = try await call("PutUserPolicy", ["UserName": "cirrus", "PolicyName": "s3-all", "PolicyDocument": policy])
        let reply = try await call("CreateAccessKey", ["UserName": "cirrus"])
        guard let keyID = reply.xmlElement("AccessKeyId"), let secret = reply.xmlElement("SecretAccessKey") else {
            throw MotoServerError("CreateAccessKey returned no key: \(String(decoding: reply.body, as: UTF8.self))")
        }
        return (keyID, secret)
    }

    /// POSTs `Action=action` with `parameters` as a form, signed for the `iam` service.
    private func call(_ action: String, _ parameters: [String: String]) async throws -> S3Response {
        let form = CanonicalRequest.canonicalQuery(parameters.merging(["Action": action, "Version": "2010-05-08"]) { $1 })
        let request = S3Request(
            method: "POST", scheme: "http", host: base.host! + ":\(base.port!)", path: "/",
            headers: ["content-type": "application/x-www-form-urlencoded; charset=utf-8"], body: Array(form.utf8))
        let signer = SignatureV4(accessKeyID: "AKIAMOTOSETUP", secretAccessKey: "setup", region: region, service: "iam")
        let reply = try await HTTPClient.shared.execute(request.signed(by: signer, at: Date()), timeout: .seconds(10))
        let body = try await reply.body.collect(upTo: 1 << 20)
        let response = S3Response(status: Int(reply.status.code), headers: [:], body: Array(buffer: body))
        guard response.isSuccess else { throw MotoServerError("IAM \(action) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))") }
        return response
    }
}
