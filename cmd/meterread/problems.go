package main

import (
	"regexp"
	"strings"
)

// The verification's problems come from the ledger's packages (book,
// walog, meters) in English, the words of the log's own checks, and stay
// so in --json. The inspector's text is in the run's language: each kind
// of problem is recognised here, at the edge, by its English form, and
// said in Portuguese with the same numbers, files and hashes. A kind not
// known here is said as it is, under a Portuguese heading, rather than
// lost.

// problemKind is one kind of problem, or a part of one (the place a fault
// names, a detail after a colon), and its Portuguese.
type problemKind struct {
	en *regexp.Regexp
	pt string
}

func kind(en, pt string) problemKind { return problemKind{regexp.MustCompile(en), pt} }

// problemKinds, longest first where one is part of another.
var problemKinds = []problemKind{
	// book.Verify
	kind(`no registered public key given \(the key registered at commissioning\): the signatures are not checked, and a key found beside the ledger would prove nothing`,
		"sem a chave pública registada no licenciamento (--pub) as assinaturas não são verificadas, e uma chave encontrada junto do registo nada provaria"),
	kind(`torn last record \(cut at the next start-up\): `, "último registo incompleto (cortado no próximo arranque): "),
	kind(`log verification failed`, "a verificação do registo falhou"),
	kind(`(snapshot-\d+) claims record (\d+) sealed at (\d+), which the log does not hold`, "o ficheiro $1 diz ter o estado do registo $2, selado no $3, que o registo não contém"),
	kind(`(snapshot-\d+) is not the state of record (\d+): forged \(the fold of the log differs\)`, "o ficheiro $1 não é o estado do registo $2: forjado (a soma do registo difere)"),
	kind(`the seal at record (\d+) names record (\d+), not the record before it \((\d+)\)`, "o selo do registo $1 nomeia o registo $2, não o anterior ($3)"),
	kind(`the seal at record (\d+) signed another state than the fold of records 1-(\d+)`, "o selo do registo $1 assinou outro estado que não a soma dos registos 1 a $2"),
	kind(`the seal of record (\d+) does not verify with key (\S+)`, "o selo do registo $1 não se verifica com a chave $2"),
	kind(`seal at record (\d+): `, "selo do registo $1: "),
	kind(`after the last record: `, "depois do último registo: "),
	// walog.Verify
	kind(`record (\d+) is the first not vouched for by the machine key: `, "o registo $1 é o primeiro sem o aval da chave da máquina: "),
	kind(`records (\d+) to (\d+) \((\d+)\) after the last commit mark are vouched for by no signature of the machine key`,
		"os registos $1 a $2 ($3) depois da última marca de gravação não têm assinatura da chave da máquina"),
	kind(`: more than one commit holds \((\d+)\), so no power loss left them`, ": mais do que uma gravação leva ($1), pelo que não foi um corte de energia que os deixou"),
	kind(`: a commit cut short by a power loss \(never acknowledged\), or records written without the board`,
		": uma gravação interrompida por um corte de energia (nunca confirmada), ou registos escritos sem a placa"),
	kind(`, followed by a torn entry of (\d+) bytes`, ", seguidos de uma entrada incompleta de $1 bytes"),
	kind(`verification stopped at seq (\d+): records after it were not checked`, "a verificação parou no registo $1: os registos seguintes não foram verificados"),
	kind(`checkpoint signatures not checked: no public key given`, "assinaturas dos pontos de controlo não verificadas: sem chave pública"),
	kind(`(\d+) bytes at offset (\d+) of segment (\S+) after seq (\d+): an incomplete last record \(not repaired\)`,
		"$1 bytes na posição $2 do segmento $3, depois do registo $4: um último registo incompleto (não reparado)"),
	// walog's faults: what, then where.
	kind(`meter fault: `, "falha do registo: "),
	kind(` \(record seq (\d+), file (\S+) offset (\d+)\)`, " (registo $1, ficheiro $2, posição $3)"),
	kind(` \(record seq (\d+), file (\S+)\)`, " (registo $1, ficheiro $2)"),
	kind(` \(record seq (\d+)\)`, " (registo $1)"),
	kind(` \(file (\S+) offset (\d+)\)`, " (ficheiro $1, posição $2)"),
	kind(` \(file (\S+)\)`, " (ficheiro $1)"),
	kind(`checkpoint file signature over seq (\d+) does not verify with the machine key`, "a assinatura do ficheiro dos pontos de controlo sobre o registo $1 não se verifica com a chave da máquina"),
	kind(`checkpoint signature over seq (\d+) does not verify with the machine key`, "a assinatura do ponto de controlo sobre o registo $1 não se verifica com a chave da máquina"),
	kind(`the last commit mark \(record (\d+)\) does not verify with the machine key, nor do the (\d+) before it: the log was written without the board`,
		"a última marca de gravação (registo $1) não se verifica com a chave da máquina, nem as $2 anteriores: o registo foi escrito sem a placa"),
	kind(`record entry damaged: `, "entrada do registo danificada: "),
	kind(`record damaged: `, "registo danificado: "),
	kind(`frame checksum (0x[0-9a-f]+) does not match its content \((0x[0-9a-f]+)\)`, "a soma de controlo $1 não corresponde ao conteúdo ($2)"),
	kind(`frame of (\d+) bytes is shorter than the (\d+)-byte minimum`, "trama de $1 bytes, menos do que o mínimo de $2"),
	kind(`frame starts with byte (0x[0-9a-f]+), not the walog v1 magic (0x[0-9a-f]+)`, "a trama começa pelo byte $1, não pela marca $2 do walog v1"),
	kind(`frame declares (\d+) payload bytes, above the (\d+) limit`, "a trama declara $1 bytes de dados, acima do limite de $2"),
	kind(`frame declares (\d+) payload bytes but carries (\d+)`, "a trama declara $1 bytes de dados mas traz $2"),
	kind(`frame carries seq 0; seqs start at 1`, "a trama traz o número 0; os números começam em 1"),
	kind(`segment ends inside a record, and it is not the last segment`, "o segmento acaba a meio de um registo, e não é o último segmento"),
	kind(`empty entry`, "entrada vazia"),
	kind(`length prefix longer than any frame needs`, "prefixo de comprimento maior do que qualquer trama precisa"),
	kind(`length prefix overflows`, "prefixo de comprimento excede o máximo"),
	kind(`length prefix is not in its shortest form`, "prefixo de comprimento não está na forma mais curta"),
	kind(`length prefix (\d+) is outside the frame size range`, "prefixo de comprimento $1 fora dos tamanhos de trama"),
	kind(`entry is complete`, "a entrada está completa"),
	kind(`byte (\d+) of the cut frame header is (0x[0-9a-f]+) where a cut write of seq (\d+) would have (0x[0-9a-f]+)`, "o byte $1 do cabeçalho cortado é $2 onde uma escrita cortada do registo $3 teria $4"),
	kind(`record carries seq (\d+) where seq (\d+) belongs`, "o registo tem o número $1 onde devia estar o $2"),
	kind(`chain hash does not follow from the previous record`, "o hash da cadeia não decorre do registo anterior"),
	kind(`checkpoint file is missing but the log holds (\d+) checkpoints`, "falta o ficheiro dos pontos de controlo, mas o registo tem $1 pontos de controlo"),
	kind(`checkpoint file damaged: `, "ficheiro dos pontos de controlo danificado: "),
	kind(`checkpoint file holds a record of type (\d+)`, "o ficheiro dos pontos de controlo tem um registo do tipo $1"),
	kind(`log ends before the signed checkpoint at seq (\d+) \(log ends at seq (\d+)\)`, "o registo acaba antes do ponto de controlo assinado no registo $1 (acaba no $2)"),
	kind(`checkpoint file differs from checkpoint record (\d+) in the log`, "o ficheiro dos pontos de controlo difere do ponto de controlo $1 do registo"),
	kind(`checkpoint file names seq (\d+), which is not one of the log's last two checkpoints \(last at seq (\d+)\)`,
		"o ficheiro dos pontos de controlo nomeia o registo $1, que não é um dos dois últimos pontos de controlo (o último é o $2)"),
	// The fold's refusal of a record: where, in Portuguese; the meters'
	// own reason (an invariant) follows as the fold says it.
	kind(`^record (\d+): `, "registo $1: "),
	kind(`^copying the log: `, "ao copiar o registo: "),
	// A signed report (meterread report verify).
	kind(`(\S+)\.sig: not an Ed25519 signature \(one line of base64\)`, "$1.sig: não é uma assinatura Ed25519 (uma linha em base64)"),
	kind(`(\S+) does not match its signature under key (\S+): changed, or signed by another key`, "$1 não corresponde à sua assinatura com a chave $2: alterado, ou assinado com outra chave"),
}

// notTranslated heads a problem of a kind not known here.
const notTranslated = "problema (nas palavras do registo): "

// translated is p in Portuguese, and whether any of it was known.
func translated(p string) (string, bool) {
	t := p
	for _, k := range problemKinds {
		t = k.en.ReplaceAllString(t, k.pt)
	}
	return t, t != p
}

// problemText is a verification problem in the language.
func problemText(p, lang string) string {
	if lang != "pt" {
		return p
	}
	if t, ok := translated(p); ok {
		return t
	}
	return notTranslated + p
}

// problemsText are problems in the language. The missing key's stays as
// it is: meters/inspect says it in the language itself.
func problemsText(ps []string, lang string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		if strings.HasPrefix(p, "no registered public key") {
			out[i] = p
			continue
		}
		out[i] = problemText(p, lang)
	}
	return out
}

// errText is an error reading the ledger in the language (its problems,
// when it has several, joined by "; ").
func errText(err error, lang string) string {
	if lang != "pt" {
		return err.Error()
	}
	t, _ := translated(err.Error())
	return t
}
