module github.com/openegm/cabinet

go 1.26.0

require (
	github.com/tidwall/wal v1.2.1
	golang.org/x/crypto v0.59.0
)

require (
	github.com/jonboulle/clockwork v0.5.0 // indirect
	github.com/tidwall/gjson v1.10.2 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	github.com/tidwall/tinylru v1.1.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	periph.io/x/conn/v3 v3.7.3 // indirect
	periph.io/x/host/v3 v3.8.5 // indirect
)
