@_exported import CirrusHTTP
@_exported import CirrusModel
@_exported import HTTPTypes
