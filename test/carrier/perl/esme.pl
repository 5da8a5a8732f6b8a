#!/usr/bin/perl
# An ESME on Debian's libnet-smpp-perl, an SMPP implementation independent of Tasman's, for the SMPP server's
# interop test. Usage: esme.pl PORT SYSTEM_ID PASSWORD DESTINATION. It reports one line per event on stdout:
#   BADBIND status=<n>                     a bind with a wrong password
#   BIND mode=<transmitter|receiver> status=<n>
#   SUBMIT name=<single|udh1|udh2|sar1|sar2|ucs2> status=<n> id=<message id>
#   DELIVER esm=<n> receipted=<id> state=<n> text=<short_message>   (each answered with deliver_sm_resp)
#   DONE
# Submits go on a transmitter bind, which then unbinds; receipts are read on a receiver bind opened afterwards,
# so they wait in Tasman's queue in between.
use strict;
use warnings;
use Net::SMPP;
use Encode qw(encode);

$| = 1;
my ($port, $system_id, $password, $dst) = @ARGV;
my %common = (port => $port, smpp_version => 0x34, timeout => 60, system_id => $system_id);

my ($bad, $bad_resp) = Net::SMPP->new_transmitter('127.0.0.1', %common, password => 'wrongpw');
print 'BADBIND status=', ($bad_resp ? $bad_resp->{status} : 'none'), "\n";

my ($tx, $resp) = Net::SMPP->new_transmitter('127.0.0.1', %common, password => $password);
print "BIND mode=transmitter status=$resp->{status}\n";

my %to = (dest_addr_ton => 1, dest_addr_npi => 1, destination_addr => $dst, registered_delivery => 1);
my @submits = (
  [single => short_message => 'Hello from Net::SMPP'],
  # A customer's own long message, by UDH (IE 0x00, reference 0x42) and by the sar_* TLVs (reference 0x1234).
  [udh1 => esm_class => 0x40, short_message => pack('C*', 5, 0, 3, 0x42, 2, 1) . 'First half, '],
  [udh2 => esm_class => 0x40, short_message => pack('C*', 5, 0, 3, 0x42, 2, 2) . 'second half.'],
  [sar1 => short_message => 'SAR one, ', sar_msg_ref_num => pack('n', 0x1234), sar_total_segments => pack('C', 2), sar_segment_seqnum => pack('C', 1)],
  [sar2 => short_message => 'SAR two.', sar_msg_ref_num => pack('n', 0x1234), sar_total_segments => pack('C', 2), sar_segment_seqnum => pack('C', 2)],
  [ucs2 => data_coding => 8, short_message => encode('UTF-16BE', "Kia ora \x{2013} ng\x{101} mihi")],
);
for my $s (@submits) {
  my ($name, @fields) = @$s;
  my $r = $tx->submit_sm(%to, @fields);
  print "SUBMIT name=$name status=$r->{status} id=", ($r->{message_id} // ''), "\n";
}
$tx->unbind();
close $tx;

my ($rx, $rresp) = Net::SMPP->new_receiver('127.0.0.1', %common, password => $password);
print "BIND mode=receiver status=$rresp->{status}\n";
my $seen = 0;
while ($seen < @submits) {
  my $pdu = $rx->read_pdu() or last;
  if ($pdu->{cmd} == 0x00000005) {
    printf "DELIVER esm=%d receipted=%s state=%d text=%s\n", $pdu->{esm_class}, ($pdu->{receipted_message_id} // '') =~ s/\0$//r,
      unpack('C', $pdu->{message_state} // "\0"), $pdu->{short_message};
    $rx->deliver_sm_resp(seq => $pdu->{seq}, message_id => '');
    $seen++;
  } elsif ($pdu->{cmd} == 0x00000015) {
    $rx->enquire_link_resp(seq => $pdu->{seq});
  }
}
$rx->unbind();
print "DONE\n";
