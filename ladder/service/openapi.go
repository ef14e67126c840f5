package service

import _ "embed"

// openAPI is the API's reference, served at /api/openapi.json. A test holds it to the
// routes the service mounts and the answers they give.
//
//go:embed openapi.json
var openAPI []byte
