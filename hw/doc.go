// Package hw maps the cabinet's physical devices, and their simulated twins,
// to events and effects. It does not know the machine: the glue in
// cmd/cabinet maps inputs to machine events by logical name and turns the
// machine's effects into SetLamp, Pulsers.SetTarget and printer calls.
//
// Pins. A Mapping (strict JSON; the embedded default maps every device to a
// simulated pin such as SIM_SPIN) names the pin of every input (buttons, key
// switches, doors), lamp and electromechanical meter. Open either loads the
// periph.io host drivers and looks the pins up in gpioreg, or registers a
// gpiotest-based SimPin under each pin name; the rest of the code is the same
// for both.
//
// Inputs. The library's debouncer is not used. Run samples every input each
// PollInterval (2 ms) through gpio.PinIn.Read and feeds a pure Debouncer per
// input: a level counts once it has been steady for the input's window
// (defaults: buttons 20 ms, key switches 50 ms, doors 50 ms). The initial
// stable state of every input is emitted once at start, since doors and keys
// at power-up matter.
//
// Meters. A Pulser per meter drives the coil until the pulses delivered equal
// the target the cabinet derives from the ledger. Delivered is persisted in a
// small file written atomically (temp, fsync, rename, directory fsync). The
// in-flight marker is persisted before the coil is energised; at start-up a
// pulse found in flight counts as delivered and is added to Uncertain. A
// power loss can therefore lose a pulse (the meter lags the ledger by at most
// Uncertain) but never repeats one: a hard meter never counts more than the
// ledger. A target below the delivered count is refused. Baseline takes the
// current target as delivered for a new board on an existing ledger.
//
// Devices. BillValidator and PrinterCore are state machines (the printer's
// with time passed in); Printer wraps the core with a timer. The Sim of a
// simulated board bundles pins, validator and printer for the control socket.
package hw
