import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  IconButton,
  InputAdornment,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import SearchIcon from '@mui/icons-material/Search';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useQuery } from '@tanstack/react-query';
import { DOCUMENT_MESSAGES, type FacilityDocument } from '@portal/contracts/documents';
import { formatDateOnly, isSystemAdmin, MESSAGES } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { useNotify } from '../../lib/notifications';
import { useSession } from '../../lib/session';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { saveBlob } from '../../ui/files/save-blob';
import { UploadDocumentDialog } from './UploadDocumentDialog';
import { documentsQuery, downloadDocument, useDeleteDocument, useRecordVisit } from './documents-api';

const dateOrNoDate = (value: string | null) => (value ? formatDateOnly(value) : MESSAGES.NO_DATE);
const textOrNA = (value: string | null) => value?.trim() || MESSAGES.NOT_AVAILABLE;
const visitTime = (d: FacilityDocument) =>
  d.visitOrActionDate ? new Date(d.visitOrActionDate).getTime() : -Infinity;

/**
 * Service documents (/service/documents): grouped by ship, newest visit first, with search and the fleet filter; no
 * paging. Opening the screen records the visit, which marks the document messages read.
 */
export default function DocumentsPage() {
  const documents = useQuery(documentsQuery());
  const { filteredFacilities, facilities } = useFleet();
  const { profile } = useSession();
  const recordVisit = useRecordVisit();
  const remove = useDeleteDocument();
  const { error, success } = useNotify();
  const [search, setSearch] = useState('');
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<FacilityDocument | null>(null);
  const systemAdmin = isSystemAdmin(profile?.roles ?? []);
  const visited = useRef(false);

  useEffect(() => {
    if (!profile || visited.current) return;
    visited.current = true;
    recordVisit.mutate(profile.sub, { onError: (cause) => console.error(cause) });
  }, [profile, recordVisit]);

  const groups = useMemo(() => {
    const allowed = new Set((filteredFacilities ?? []).map((f) => f.id));
    const needle = search.trim().toLowerCase();
    const shown = (documents.data ?? []).filter(
      (d) =>
        allowed.has(d.facilityId) &&
        (!needle ||
          [
            d.facilityName,
            d.fileName,
            d.docType,
            d.equipmentTag,
            dateOrNoDate(d.visitOrActionDate),
            dateOrNoDate(d.docDate),
            dateOrNoDate(d.expiry),
          ].some((v) => v?.toLowerCase().includes(needle))),
    );
    const byShip = new Map<string, { name: string; items: FacilityDocument[] }>();
    for (const d of shown) {
      const group = byShip.get(d.facilityId) ?? { name: d.facilityName, items: [] };
      group.items.push(d);
      byShip.set(d.facilityId, group);
    }
    for (const g of byShip.values()) g.items.sort((a, b) => visitTime(b) - visitTime(a));
    return [...byShip.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [documents.data, filteredFacilities, search]);

  const download = async (d: FacilityDocument) => {
    try {
      saveBlob(await downloadDocument(d.fileRef), d.fileName);
    } catch (cause) {
      // Fixed defect of the described product: a failed download was only logged (docs/decisions/0012).
      error(undefined, cause);
    }
  };

  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
        <Box sx={{ flex: 1 }} />
        <TextField
          size="small"
          placeholder="Search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
            htmlInput: { 'aria-label': 'Search documents' },
          }}
        />
        {systemAdmin && (
          <Button variant="contained" startIcon={<UploadFileIcon />} onClick={() => setUploading(true)}>
            Upload document
          </Button>
        )}
      </Stack>
      {documents.isError ? (
        <Alert severity="error">{MESSAGES.DEFAULT_ERROR}</Alert>
      ) : documents.isPending ? (
        <Skeleton variant="rounded" height={200} />
      ) : (
        <TableContainer
          component={Paper}
          variant="outlined"
          // On a phone the table scrolls sideways: focusable, so a keyboard can scroll it too.
          tabIndex={0}
          role="region"
          aria-label="Documents table"
        >
          <Table size="small" aria-label="Documents">
            <TableHead>
              <TableRow>
                <TableCell>Ship</TableCell>
                <TableCell>Document type</TableCell>
                <TableCell>Visit/Action date</TableCell>
                <TableCell>Document date</TableCell>
                <TableCell>Expiry date</TableCell>
                <TableCell>Equipment tag</TableCell>
                <TableCell>File name</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {groups.length === 0 && (
                <TableRow>
                  <TableCell colSpan={7}>No documents</TableCell>
                </TableRow>
              )}
              {groups.map((g) => (
                <Fragment key={g.name}>
                  <TableRow sx={{ bgcolor: 'action.hover' }}>
                    <TableCell colSpan={7}>
                      <Typography variant="subtitle2">{g.name}</Typography>
                    </TableCell>
                  </TableRow>
                  {g.items.map((d) => (
                    <TableRow key={d.fileRef} hover>
                      <TableCell>{d.facilityName}</TableCell>
                      <TableCell>{textOrNA(d.docType)}</TableCell>
                      <TableCell>{dateOrNoDate(d.visitOrActionDate)}</TableCell>
                      <TableCell>{dateOrNoDate(d.docDate)}</TableCell>
                      <TableCell>{dateOrNoDate(d.expiry)}</TableCell>
                      <TableCell>{textOrNA(d.equipmentTag)}</TableCell>
                      <TableCell>
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          <span>{d.fileName}</span>
                          <Tooltip title="Download">
                            <IconButton
                              size="small"
                              aria-label={`Download ${d.fileName}`}
                              onClick={() => void download(d)}
                            >
                              <DownloadIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                          {systemAdmin && (
                            <Tooltip title="Delete">
                              <IconButton
                                size="small"
                                aria-label="Delete document"
                                onClick={() => setDeleting(d)}
                              >
                                <DeleteIcon fontSize="small" />
                              </IconButton>
                            </Tooltip>
                          )}
                        </Stack>
                      </TableCell>
                    </TableRow>
                  ))}
                </Fragment>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {uploading && <UploadDocumentDialog ships={facilities ?? []} onClose={() => setUploading(false)} />}
      {deleting && (
        <ConfirmDialog
          title="Delete document?"
          text={DOCUMENT_MESSAGES.deleteConfirmation(deleting.fileName)}
          confirmLabel="Delete"
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.fileId, {
              onSuccess: () => {
                success(DOCUMENT_MESSAGES.deleted);
                setDeleting(null);
              },
              onError: (cause) => {
                error(undefined, cause);
                setDeleting(null);
              },
            })
          }
        />
      )}
    </Box>
  );
}
