@_exported import CirrusHTTP
@_exported import CirrusModel
@_exported import HTTPTypes
@_exported import CirrusServices
@_exported import CirrusStorage
