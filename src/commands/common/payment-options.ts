/** The payment flags shared by `order accept` and `book`. */
import type { Command } from 'commander';

/** Adds `--payment`, `--card`, `--payment-file`, `--callback`, `--send-documents`, `--account-number`. */
export function addPaymentOptions(cmd: Command): Command {
  return cmd
    .option('--payment <type>', "payment type: credit, stored_card or credit_card (default: the profile's)")
    .option('--card <stored-card-id>', 'stored card id for --payment stored_card')
    .option('--payment-file <file>', 'accept request in wire form with the card details (never give card numbers as flags)')
    .option('--callback <url>', 'URL the service POSTs the booking result to')
    .option('--send-documents', 'e-mail the tracking number and documents to the recipient and the order creator')
    .option('--account-number <number>', 'carrier account number');
}
