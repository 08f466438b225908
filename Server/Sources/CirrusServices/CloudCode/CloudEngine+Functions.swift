package import CirrusModel

/// Cloud functions: a client's call passed to the engine with the client's identity, the engine's reply passed back.
extension CloudEngine {
    /// A client's call of a cloud function.
    package struct FunctionCall: Sendable {
        /// The function's name, as in `/functions/<name>`.
        package var name: String
        /// Whether it is LeanCloud's RPC form (`/call/<name>`: parameters and result in object encoding).
        package var rpc: Bool
        /// The parameters as the client sent them (a JSON object), passed on unchanged.
        package var parameters: [UInt8]?
        /// Whether the call is for the production engine (LeanCloud's `X-LC-Prod`, 1 unless the client says 0).
        package var production: Bool
        /// The client's address, for the engine's `request.meta.remoteAddress`.
        package var clientAddress: String?

        package init(name: String, rpc: Bool, parameters: [UInt8]?, production: Bool = true, clientAddress: String? = nil) {
            self.name = name
            self.rpc = rpc
            self.parameters = parameters
            self.production = production
            self.clientAddress = clientAddress
        }
    }

    /// Calls a cloud function for `caller` and answers the engine's reply, `{"result": …}`.
    ///
    /// The engine learns the caller as from LeanCloud: the app key, or the master key for a master caller (Cirrus
    /// checked the caller's keys or signature), and the caller's session token, from which the engine reads the user.
    /// - Throws: ``APIError``: ``APIError/Reason/cloudFunctionNotFound`` without an engine or for a name no engine
    ///   could serve; the function's own error, unchanged; a timeout after ``EngineSettings/functionTimeout``.
    package func call(_ function: FunctionCall, caller: Caller) async throws(APIError) -> JSON {
        if let webhook = webhooks?.url(for: .function(function.name)) {
            return try await callWebhook(function, url: webhook, caller: caller)
        }
        guard let url = settings.url(production: function.production) else {
            throw APIError(.cloudFunctionNotFound, "No such cloud function: \(function.name) (no cloud-code engine is configured).")
        }
        try Self.checkName(function.name)
        var headers = credentials(master: caller.isMaster)
        if let token = caller.sessionToken { headers.append(("X-LC-Session", token)) }
        headers.append(("X-LC-Prod", function.production ? "1" : "0"))
        if let address = function.clientAddress {
            headers.append(("X-Real-IP", address))
            headers.append(("X-Forwarded-For", address))
        }
        let path = (function.rpc ? "/1.1/call/" : "/1.1/functions/") + function.name
        let request = EngineRequest(method: "POST", path: path, headers: headers, body: function.parameters ?? Array("{}".utf8))
        return .object(try await exchange(request, url: url, timeout: settings.functionTimeout, describing: "the function \(function.name)"))
    }

    /// Letters, digits, `_`, `-` and `.`: what the names of functions (and, without `.`, of jobs) are made of.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D || byte == 0x2E
    }

    /// A function name is letters, digits, `_`, `-` and `.`, not a dot first: nothing that changes the engine's path.
    /// - Throws: `invalid`, or by default ``APIError/Reason/cloudFunctionNotFound``.
    static func checkName(_ name: String, invalid: APIError? = nil) throws(APIError) {
        let allowed = name.utf8.allSatisfy(isNameByte)
        guard !name.isEmpty, name.utf8.count <= 128, allowed, !name.hasPrefix("."), !name.hasPrefix("_ops") else {
            throw invalid ?? APIError(.cloudFunctionNotFound, "No such cloud function: \(name.prefix(128)).")
        }
    }
}
